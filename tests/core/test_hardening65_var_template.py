"""A --var value is data: only the playbook's defaults and an inventory's values are rendered.
`--var 'draft_dir={{ model_dir }}/eagle3'` (Ansible renders its `-e 'draft={{ model }}/eagle3'`)
validated and ran, and the step got `'{{ model_dir }}/eagle3'`: a folder named with the braces.
Such a value is now refused before any host is touched (exit 2, no run folder); a value whose
braces read no var of the playbook (docker's `{{.State.Status}}`, text that is no Jinja) is
given as typed, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: draft_files
vars:
  model_dir: /models/llama
  draft_dir: ""
  port: 30000
steps:
  - id: draft_files
    run: echo {{ draft_dir }} {{ port }}
"""


def _run(tmp_path: Path, *given: str):
    playbook = tmp_path / "draft_files.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    out = tmp_path / "runs"
    return run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--json", *given), out


@pytest.mark.parametrize(("given", "value_of"), [
    ("draft_dir={{ model_dir }}/eagle3", "model_dir"),
    ("draft_dir={{ vars.model_dir }}/eagle3", "vars.model_dir"),
    ("port={{ port + 1 }}", "port + 1"),  # a number var: named as a template, not as "not a number"
])
def test_a_var_value_that_reads_a_var_is_refused_before_any_host(tmp_path: Path, given: str, value_of: str) -> None:
    result, out = _run(tmp_path, "--var", given)
    assert result.code == 2
    first, hint = result.stderr.splitlines()[:2]
    assert first == (f"error: --var {given}: a --var value is used as given, not as a template "
                     f"(the command would get the braces, not the value of {value_of})")
    name, _, text = given.partition("=")
    assert hint == (f"  hint: write the value itself; a value built from other vars is a default in the playbook's "
                    f"vars: ({name}: {json.dumps(text)}), rendered for each host")
    assert not out.exists() or not any(out.iterdir())


def test_braces_that_read_no_var_of_the_playbook_are_given_as_typed(tmp_path: Path) -> None:
    result, _ = _run(tmp_path, "--var", "draft_dir={{.State.Status}}")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "{{.State.Status}} 30000\n"
