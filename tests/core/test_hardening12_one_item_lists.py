"""`requires: model_path` (one name, or `model_path, tokenizer`) gets the list to write.

Ansible's `tags: gpu` and a Makefile's prerequisites are written without brackets; here
`requires:`, a finding's `references:` and `evidence:` are lists, and the error said only
"Input should be a valid list (got str 'model_path')". The hint is the line to write; the test
writes it back and the playbook loads.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_cli

HEAD = 'name: p\nvars:\n  model_path: ""\n  tokenizer: ""\nsteps:\n  - id: a\n    run: echo\n'


@pytest.mark.parametrize("written", [
    "    requires: model_path",
    "    requires: model_path, tokenizer",
    "    findings:\n      - code: XX101\n        references: https://github.com/sgl-project/sglang/issues/5623",
])
def test_a_single_value_where_a_list_goes_gets_the_list_to_write(write_playbook, written):
    text = HEAD + written + "\n"
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    hint = re.search(r"hint: \w+ is a list[^:]*: (\w+: \[.*\])$", said)
    assert hint, said
    last_line = written.splitlines()[-1]
    fixed = last_line[: len(last_line) - len(last_line.lstrip())] + hint.group(1)
    repaired = write_playbook(text.replace(last_line, fixed), "repaired.yaml")
    loaded = run_cli("playbooks", "validate", str(repaired))
    assert loaded.code == 0, loaded.stderr


def test_an_ansible_when_list_gets_the_one_expression_that_means_all_of_them(write_playbook, tmp_path):
    # Ansible reads a when: list as "all of these" (docs.ansible.com, playbooks_conditionals).
    text = ('name: p\nvars:\n  engine: sglang\n  tp: 8\nsteps:\n  - id: a\n    run: echo tp\n'
            '    when:\n      - engine == "sglang"\n      - tp > 1\n')
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2, result.stderr
    hint = re.search(r"hint: when is one expression; for all of them: (when: .*)$", " ".join(result.stderr.split()))
    assert hint, result.stderr
    fixed = text.replace('    when:\n      - engine == "sglang"\n      - tp > 1\n', f"    {hint.group(1)}\n")
    ran = run_cli("run", str(write_playbook(fixed, "fixed.yaml")), "--host", "local", "--out", str(tmp_path / "runs"),
                  "--json", "--var", "tp=1")
    assert ran.code == 0, ran.stderr
    assert '"status": "skipped"' in ran.stdout and "when" in ran.stdout
