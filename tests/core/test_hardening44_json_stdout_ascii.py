"""`run --json` is for machines, and CI runners often have LANG=C or PYTHONIOENCODING=ascii. The
record went out through the console stream, which escapes what it cannot encode: a var
"équipe" was written "\\xe9quipe", which is no JSON escape, and the reader's json.loads failed
on the whole record. It is now written in UTF-8, as the other documents are."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: team_check
description: Débit — «accept_length» ≥ 2
vars:
  team: "inference"
steps:
  - id: hello
    title: Bonjour {{ team }}
    run: "echo 'débit 97.1 tok/s → lent'"
"""


def test_run_json_under_an_ascii_locale_is_json(tmp_path: Path) -> None:
    playbook = tmp_path / "team_check.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json",
                     "--var", "team=équipe", env={"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["vars"]["team"] == "équipe"
    assert record["steps"][0]["stdout"].strip() == "débit 97.1 tok/s → lent"
