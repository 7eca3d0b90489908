"""`pip install sglang==9.9 2>&1 | tail -3`: the pipeline's status is tail's 0 (bash(1),
"Pipelines"), so the agent's tool records a success while pip's last line says it gave up.

Before: no error at all; the install that never happened was missing from the session's errors
(and the ModuleNotFoundError that followed had no cause before it). Now pip's own last words,
"ERROR: No matching distribution found for ...", "ERROR: Could not build wheels for ...", are the
command's error whatever status it ended with; its resolver note after an install that went
through is none."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer

SID = "ab690000-0000-4000-8000-000000000692"

NOT_FOUND = "ERROR: No matching distribution found for sglang==9.9"
NO_WHEEL = ("ERROR: Could not build wheels for flashinfer, which is required to install pyproject.toml-based "
            "projects")


def _analyze(tmp_path: Path, command: str, output: str, exit_code: int | None):
    w = _Writer(SID, None, datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc))
    w.prompt("Install the engine")
    w.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("command, output, said", [
    ("pip install sglang==9.9 | tail -1", NOT_FOUND, NOT_FOUND),
    ("pip install sglang==9.9 2>&1 | tail -3",
     "Collecting sglang==9.9\nERROR: Could not find a version that satisfies the requirement sglang==9.9 (from "
     "versions: 0.5.6, 0.5.23)\n" + NOT_FOUND + "\n", NOT_FOUND),
    ("pip install -q flashinfer 2>&1 | tail -2", "  ERROR: Failed building wheel for flashinfer\n" + NO_WHEEL,
     NO_WHEEL),
    ("pip install vllm==0.34.0 torch==2.1.0 2>&1 | tail -1",
     "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/",
     "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/"),
])
def test_pips_last_words_are_an_error_under_tails_status(tmp_path: Path, command: str, output: str, said: str) -> None:
    a = _analyze(tmp_path, command, output, 0)
    # the status stays tail's 0; the command failed all the same: pip installed nothing
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(0, True)]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [("tool_error", said, a.commands[0].seq)]


def test_an_install_that_went_through_is_no_error(tmp_path: Path) -> None:
    out = ("Successfully installed sglang-0.5.23\nERROR: pip's dependency resolver does not currently take into "
           "account all the packages that are installed. This behaviour is the source of the following dependency "
           "conflicts.")
    assert _analyze(tmp_path, "pip install sglang 2>&1 | tail -2", out, 0).errors == []
    # pip's words not on the last line: the retry after them went through
    out = NOT_FOUND + "\nLooking in indexes: https://pypi.org/simple\nSuccessfully installed sglang-0.5.23"
    assert extract_errors(out, 0, False, status_known=True) == []


def test_pips_last_words_in_a_terminal_log() -> None:
    # no status recorded: the same line is the failure (was none: tail, the last program, wrote nothing)
    (e,) = extract_errors("Collecting sglang==9.9\n" + NOT_FOUND + "\n", None, False, status_known=False)
    assert (e.kind, e.message) == ("tool_error", NOT_FOUND)
    # a long install log: the last line is found past thousands of lines of progress
    out = "".join(f"Collecting dep{i}\n" for i in range(3000)) + NO_WHEEL
    (e,) = extract_errors(out, 0, False, status_known=True)
    assert e.message == NO_WHEEL
