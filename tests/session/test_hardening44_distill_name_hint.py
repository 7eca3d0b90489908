"""`distill --name débit` was told `--name d_bit`, where a playbook's `name: débit` is told
`debit`: the two made their suggestion with two copies of one rule, and distill's dropped
the letters it could have kept. Both now use the loader's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("typed", "suggested"), [("débit", "debit"), ("Prüfung GPU", "Prufung_GPU"), ("a/b", "a_b")])
def test_distill_suggests_the_name_the_loader_would(tmp_path: Path, typed: str, suggested: str) -> None:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"name: {typed}\nsteps:\n  - id: x\n    run: 'true'\n", encoding="utf-8")
    loader = run_cli("playbooks", "validate", str(playbook))
    assert loader.stderr.splitlines()[-1].endswith(f"name: {suggested}")
    session = tmp_path / "s.jsonl"
    session.write_text("")
    result = run_cli("distill", str(session), "-o", str(tmp_path / "out.yaml"), "--name", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        f"  hint: one word of letters, digits, _ . - (it names the run folders): --name {suggested}")
