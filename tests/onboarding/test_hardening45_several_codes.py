"""`findings 'SD201,SD202'` (or 'SD201 SD202' quoted as one word, as pasted from a report's list)
said "unknown finding code 'SD201,SD202'" with a hint that named both codes as known, and
`explain` said "no playbook file"; each command takes one code: the refusal now names the codes it
read and the command for each."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("command", ["findings", "explain"])
@pytest.mark.parametrize("typed", ["SD201,SD202", "SD201 SD202", "[SD201], [sd202]", "sd201/sd202"])
def test_a_list_of_codes_is_refused_with_one_command_each(command: str, typed: str) -> None:
    result = run_cli(command, typed)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {typed!r} is 2 finding codes; `spec-debug {command}` takes one at a time",
        f"  hint: one command each: `spec-debug {command} SD201`; `spec-debug {command} SD202`",
    ]


@pytest.mark.parametrize("command", ["findings", "explain"])
def test_one_spaced_code_is_still_one_code(command: str) -> None:
    result = run_cli(command, "sd 201")
    assert result.code == 0, result.stderr
    assert "SD201" in result.stdout


def test_a_playbook_file_named_like_a_list_is_a_playbook(tmp_path) -> None:
    (tmp_path / "SD201,SD202").write_text("name: codes\nsteps:\n  - id: a\n    run: 'true'\n")
    result = run_cli("explain", "SD201,SD202", cwd=tmp_path)
    assert "finding codes" not in result.stderr
