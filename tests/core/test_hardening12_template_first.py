"""`run: {{ python }} -c ...` names the trap: a value starting with '{{' must be quoted.

A plain YAML value cannot start with '{' (YAML 1.2.2, 7.3.3): YAML reads a flow mapping. The
loader said "YAML syntax error: expected <block end>, but found '<scalar>'" (with "check
indentation") or "a mapping cannot be a mapping key", which sends the author looking at the
indentation. Ansible users know the fix from Ansible's own hint (ansible/ansible
lib/ansible/errors/yaml_strings.py, YAML_COMMON_UNQUOTED_VARIABLE_ERROR); the hint here is the
author's line, quoted, and applying it makes the playbook load.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_cli

HEAD = "name: venv_python\nvars:\n  python: ~/ml-env/bin/python\n  model: /models/llama\n"


def _hint(stderr: str) -> str:
    found = re.search(r"hint: (.*)", " ".join(stderr.split()))
    assert found, stderr
    return found.group(1)


@pytest.mark.parametrize("line, where", [
    ('    run: {{ python }} -c "import torch; print(torch.cuda.device_count())"', "7:10"),  # a syntax error
    ("    run: {{ python }}", "7:10"),  # a mapping used as a key
    ("    run: {% if model %}ls {{ model }}{% endif %}", "7:10"),  # '%' cannot start any token
])
def test_a_command_that_starts_with_a_template_gets_its_quoted_form(write_playbook, line, where):
    text = HEAD + "steps:\n  - id: gpus\n" + line + "\n"
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    assert f":{where}:" in result.stderr and f"starts with '{line.strip()[5:7]}'" in result.stderr, result.stderr
    assert "indentation" not in result.stderr and "mapping key" not in result.stderr, result.stderr
    fixed = _hint(result.stderr).removeprefix("quote the whole value: ")
    assert fixed.startswith("run: ") and fixed[5] in "'\"", fixed
    repaired = write_playbook(text.replace(line.strip(), fixed), "repaired.yaml")
    assert run_cli("playbooks", "validate", str(repaired)).code == 0


def test_a_var_and_a_list_item_that_start_with_a_template(write_playbook):
    result = run_cli("playbooks", "validate", str(write_playbook(HEAD + "  draft: {{ model }}/eagle3\nsteps:\n  - id: a\n    run: echo\n")))
    assert result.code == 2 and ":5:10:" in result.stderr, result.stderr
    assert _hint(result.stderr) == 'quote the whole value: draft: "{{ model }}/eagle3"'
    text = HEAD + "steps:\n  - id: a\n    run: echo\n    requires:\n      - {{ model }}\n"
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2 and "starts with '{{'" in result.stderr, result.stderr
    assert _hint(result.stderr) == 'quote the whole value: - "{{ model }}"'


def test_a_command_with_both_kinds_of_quotes_is_sent_to_a_block(write_playbook):
    text = HEAD + "steps:\n  - id: a\n    run: {{ python }} -c \"print('ok')\"\n"
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2, result.stderr
    assert _hint(result.stderr).startswith("write 'run: |' and put the value on the next line"), result.stderr
