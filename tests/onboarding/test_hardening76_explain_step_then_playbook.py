"""`spec-debug explain hidden_layout hidden_state_format`, the step typed before its playbook
(the README shows `explain hidden_state_format hidden_layout`): the hint was "the concept
'concat order'?", a near spelling of the two words joined, which says nothing of the step. It
now gives the command with the playbook first; a file playbook too. Words that are not one of
that playbook's steps keep the old hint."""

from __future__ import annotations

from tests.conftest import run_cli


def test_shipped_step_then_its_playbook():
    result = run_cli("explain", "hidden_layout", "hidden_state_format")
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: explain takes one playbook, code or concept; got also: hidden_state_format",
        "  hint: the playbook first: `spec-debug explain hidden_state_format hidden_layout`"]
    assert run_cli("explain", "hidden_state_format", "hidden_layout").code == 0


def test_file_playbook_step_first(tmp_path):
    (tmp_path / "t.yaml").write_text("name: t\nsteps:\n  - id: a\n    run: echo one\n  - id: b\n    run: echo two\n")
    result = run_cli("explain", "b", "t.yaml", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[1] == "  hint: the playbook first: `spec-debug explain t.yaml b`"
    other = run_cli("explain", "zz", "t.yaml", cwd=tmp_path)
    assert other.code == 2
    assert other.stderr.splitlines()[1] == ("  hint: quote a concept of several words (spec-debug explain "
                                            "'accept length'); `spec-debug explain concepts` lists them")
