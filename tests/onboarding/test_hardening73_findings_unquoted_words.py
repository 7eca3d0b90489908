"""`spec-debug findings SD101 SD201` (two codes of a report, typed without quotes) was click's
boxed "Got unexpected extra argument(s) (SD201)", where the quoted 'SD101 SD201' and `explain
SD101 SD201` name one command per code. A finding line pasted whole (`findings SD101 Speculation
capped ...`), `findings sd 201` and `findings accept length` got the same box. Now the unquoted
words are read as the quoted ones: a list of codes gets one command each, a code followed by its
catalog title is that code, 'sd 201' is SD201, a concept gets its `explain` hint, and a code
followed by other words is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

TITLE = "Speculation capped at one drafted token per round"


def test_two_codes_unquoted_get_one_command_each(tmp_path: Path) -> None:
    result = run_cli("findings", "SD101", "SD201", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: 'SD101 SD201' is 2 finding codes; `spec-debug findings` takes one at a time",
        "  hint: one command each: `spec-debug findings SD101`; `spec-debug findings SD201`"]


def test_a_finding_line_pasted_unquoted_is_its_code(tmp_path: Path) -> None:
    result = run_cli("findings", "SD101", *TITLE.split(), cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"## SD101: {TITLE}\n")
    quoted = run_cli("findings", f"SD101 (error): {TITLE}", "--json", cwd=tmp_path)
    assert json.loads(quoted.stdout)["code"] == "SD101"


def test_a_spaced_code_unquoted_is_one_code(tmp_path: Path) -> None:
    result = run_cli("findings", "sd", "201", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("## SD201: ")


def test_a_concept_unquoted_gets_its_explain_hint(tmp_path: Path) -> None:
    result = run_cli("findings", "accept", "length", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: unknown finding code 'accept length'",
        "  hint: accept length is a concept, not a finding code: `spec-debug explain 'accept length'` explains it"]


def test_a_code_with_other_words_is_refused_in_one_line(tmp_path: Path) -> None:
    result = run_cli("findings", "SD101", "Speculation", "capped", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: findings takes one code; got also: Speculation capped",
        "  hint: `spec-debug findings SD101` explains that code"]
