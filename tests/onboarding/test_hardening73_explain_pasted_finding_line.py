"""A newcomer copies what the run printed into `explain`:

- `spec-debug explain SD101 SD201` (two codes of a report, unquoted) was "explain takes one
  playbook, code or concept; got also: SD201" with the rule for quoting a concept; quoted
  ('SD101 SD201') it already got "is 2 finding codes" and one command each. Now unquoted too.
- `spec-debug explain SD101 Speculation capped at one drafted token per round` (the progress
  line), or "SD101 (error): ..." (the step-through's line), "SD101: ..." (a report's heading),
  quoted or not, was "got also: Speculation ..." or "no playbook file". A code followed by its
  catalog title is that code's entry; a code with other words is refused as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

TITLE = "Speculation capped at one drafted token per round"


def test_two_codes_unquoted_get_one_command_each(tmp_path: Path) -> None:
    result = run_cli("explain", "SD101", "SD201", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: 'SD101 SD201' is 2 finding codes; `spec-debug explain` takes one at a time",
        "  hint: one command each: `spec-debug explain SD101`; `spec-debug explain SD201`"]


@pytest.mark.parametrize("words", [
    ("SD101", *TITLE.split()),
    (f"SD101 {TITLE}",),
    (f"SD101 (error): {TITLE}",),
    (f"SD101: {TITLE}.",),
    ("[SD101]", *TITLE.lower().split()),
])
def test_a_finding_line_pasted_whole_is_its_code(tmp_path: Path, words: tuple[str, ...]) -> None:
    result = run_cli("explain", *words, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"## SD101: {TITLE}\n")
    assert json.loads(run_cli("explain", *words, "--json", cwd=tmp_path).stdout)["code"] == "SD101"


def test_a_code_with_other_words_is_still_refused(tmp_path: Path) -> None:
    result = run_cli("explain", "SD101", "Speculation", "capped", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[0] == "error: explain takes one playbook, code or concept; got also: Speculation capped"
