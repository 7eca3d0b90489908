"""A new engineer remembers half a code: `explain SD1` (the launch-flag codes), `explain 'sd 10'`.
`explain` answered "no playbook file 'SD1'" with the list of shipped playbooks, which names no
code, and `findings SD1` suggested SD701, SD601, SD501 (difflib's nearest strings), not the
SD1xx family the engineer was after. Both now name the codes that start so."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

LAUNCH_FLAG_CODES = "SD101, SD102, SD103, SD104"


@pytest.mark.parametrize("typed", ["SD1", "sd1", "sd 1", "SD-10", "sd10"])
def test_explain_of_the_start_of_a_code_names_the_codes_it_starts(typed: str) -> None:
    # Since hardening58 the family is the answer (exit 0, stdout), no longer an error's hint.
    result = run_cli("explain", typed)
    assert result.code == 0
    assert result.stdout.splitlines()[0] == f"{typed} is the start of 4 finding codes:"
    assert [line[2:7] for line in result.stdout.splitlines() if line.startswith("- ")] == LAUNCH_FLAG_CODES.split(", ")


def test_findings_of_the_start_of_a_code_suggests_its_family() -> None:
    result = run_cli("findings", "SD1")
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        f"  hint: known codes include {LAUNCH_FLAG_CODES}; `spec-debug findings` lists them all")


def test_a_whole_code_still_explains_and_a_playbook_name_is_no_code() -> None:
    assert run_cli("explain", "sd101").stdout.startswith("## SD101: ")
    result = run_cli("explain", "host_smok")
    assert result.stderr.splitlines()[-1] == "  hint: did you mean 'host_smoke'?"


@pytest.mark.parametrize("typed", ["SD9", "sd 90"])
def test_the_start_of_a_code_a_shipped_playbook_defines_names_that_playbook(typed: str) -> None:
    """SD9 starts no catalog code but host_smoke's own SD901 (free disk): the hint was the bare
    list of shipped playbooks."""
    result = run_cli("explain", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        f"  hint: {typed} is the start of a finding code (SD and three digits): SD901, of the shipped playbook "
        "host_smoke: `spec-debug explain host_smoke` says what it checks and why")
