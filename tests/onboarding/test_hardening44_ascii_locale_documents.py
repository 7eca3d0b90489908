"""Under an ASCII locale (LANG=C, PYTHONIOENCODING=ascii: a serial console, a minimal container)
the console streams escape what they cannot encode, which suits tables and messages. Two
documents still went through them: `playbooks show x > copy.yaml` wrote "acc\\xe9pt" where the
playbook said "accépt" (a changed playbook), and `findings SD201 > notes.md` wrote "\\xb7" where
`explain`, which prints the same entry, writes "·". Both now go out as UTF-8, like every other
document."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

ASCII = {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"}

PLAYBOOK = """\
name: debit_check
description: Vérifie le débit du drafter — «accept_length» ≥ 2
steps:
  - id: free_disk
    title: Espace libre sur /modèles
    run: df -h /
"""


def test_playbooks_show_prints_the_playbook_unchanged(tmp_path: Path) -> None:
    playbook = tmp_path / "débit.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    result = run_cli("playbooks", "show", str(playbook), env=ASCII)
    assert result.code == 0, result.stderr
    assert result.stdout == PLAYBOOK


def test_findings_of_one_code_to_a_file_is_the_entry_explain_writes() -> None:
    findings = run_cli("findings", "SD201", env=ASCII)
    explain = run_cli("explain", "SD201", env=ASCII)
    assert findings.code == explain.code == 0
    assert "\\x" not in findings.stdout and "\\u" not in findings.stdout
    assert "·" in findings.stdout
    assert findings.stdout == explain.stdout
