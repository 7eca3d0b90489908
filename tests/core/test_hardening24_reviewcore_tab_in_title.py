"""A tab inside quotes in a value that is no command (`title: Check 'a<TAB>b'`, a capture's
regex): 55a95b4's hint spoke of 'the command's quotes'. It names the key's value. Real CLI."""

from __future__ import annotations

from tests.conftest import run_cli


def test_a_tab_in_a_titles_quotes_is_not_called_the_commands(tmp_path):
    (tmp_path / "p.yaml").write_text("name: t\nsteps:\n  - id: a\n    title: Check 'a\tb'\n    run: echo\n")
    result = run_cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    text = " ".join(result.stderr.split())
    assert result.code == 2 and "a tab inside title's quotes" in text and "command" not in text, result.stderr


def test_a_tab_in_a_commands_quotes_still_says_so(tmp_path):
    (tmp_path / "p.yaml").write_text("name: t\nsteps:\n  - id: a\n    run: grep -P \"a\tb\" x\n")
    result = run_cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert "a tab inside the command's quotes" in " ".join(result.stderr.split()), result.stderr
