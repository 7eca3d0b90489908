"""A finding title that names a key of a mapping var shows that key's default in `explain`.

`vars: {engine: {name: sglang, tp: 8}}` with `title: "... on {{ engine.name }}"` (a var file
or inventory often groups an engine's settings like this) read "... on NAME" in the
walkthrough: the dotted name was looked up as one var.
"""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """\
name: engine_settings
vars:
  engine: {name: sglang, tp: 8, draft: {steps: 3}}
  min_free_gb: 20
steps:
  - id: tp
    run: echo {{ engine.tp }}
    findings:
      - code: XX101
        title: "{{ engine.name }} serves with tp={{ vars.engine.tp }}, {{ engine.draft.steps }} draft steps, {{ engine.port }} port"
      - code: XX102
        title: "Less than {{ min_free_gb }} GB free on {{ host }} ({{ facts.free_gb }} GB)"
"""


def test_dotted_names_in_a_title_read_the_mapping_defaults(write_playbook):
    result = run_cli("explain", str(write_playbook(PLAYBOOK)))
    assert result.code == 0, result.stderr
    assert "sglang serves with tp=8, 3 draft steps, PORT port" in result.stdout, result.stdout
    assert "Less than 20 GB free on HOST (FREE_GB GB)" in result.stdout, result.stdout
