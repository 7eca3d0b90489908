"""`spec-debug findings '#SD101'` (a code as a chat message, an issue or a commit tags it) was
"unknown finding code '#SD101'" with a hint naming SD101, and `explain '#SD101'` "no playbook
file '#SD101'". Both now read it as SD101, as they read "[SD101]" or "sd-101"; two codes tagged
so ("#SD201 #SD202") get the one-code-at-a-time refusal that names each command."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["#SD101", "#sd-101", " #SD101 "])
def test_findings_reads_a_hash_tagged_code(typed: str) -> None:
    result = run_cli("findings", typed)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "## SD101: Speculation capped at one drafted token per round"


def test_explain_reads_a_hash_tagged_code() -> None:
    result = run_cli("explain", "#SD101")
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "## SD101: Speculation capped at one drafted token per round"


def test_two_hash_tagged_codes_name_each_command() -> None:
    result = run_cli("findings", "#SD201 #SD202")
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: '#SD201 #SD202' is 2 finding codes; `spec-debug findings` takes one at a time",
        "  hint: one command each: `spec-debug findings SD201`; `spec-debug findings SD202`",
    ]


def test_a_playbook_code_tagged_names_its_playbook() -> None:
    result = run_cli("explain", "#SD901")
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        "  hint: SD901 is not in the finding catalog: SD901 is a finding code of the shipped playbook "
        "host_smoke: `spec-debug explain host_smoke` says what it checks and why")
