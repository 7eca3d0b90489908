"""--step: the walkthrough's "→ step failed: …" line printed a step's whole message (a failed
`contains:` quoting a 3,000-character log line, a host's multi-line error as control pictures),
while the run's progress line for the same step is one line of at most NOTE_LIMIT characters
with "… (N characters more in run.json and the report)" and its hint on the line under it."""

from __future__ import annotations

import io

from rich.console import Console

from spec_debug.cli_progress import NOTE_LIMIT
from spec_debug.playbook.models import Step
from spec_debug.record import StepRecord
from spec_debug.stepthrough import TerminalGate


def _said(status: str, message: str, step: Step | None = None) -> str:
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, width=10_000, color_system=None, emoji=False))
    step = step or Step(id="check", run="true", expect=[{"contains": "x"}])
    gate.after_step("gpu1", step, StepRecord(id="check", host="gpu1", status=status, message=message), [])
    return out.getvalue()


def test_a_long_failure_message_is_cut_as_the_progress_line_cuts_it():
    message = "output does not contain " + "y" * 3000
    said = _said("failed", message)
    [line] = said.splitlines()
    assert line.startswith("→ check failed: output does not contain yyy")
    more = len(message) - NOTE_LIMIT
    assert line.endswith(f"… ({more:,} characters more in run.json and the report)")
    assert line.count("y") == NOTE_LIMIT - len("output does not contain ")


def test_a_multi_line_error_is_one_line_and_its_hint_the_line_under_it():
    message = "could not connect:\nConnection refused\n  hint: check the port"
    said = _said("error", message, Step(id="check", run="true"))
    assert said.splitlines() == [
        "→ check could not run could not connect: Connection refused",
        "  hint: check the port",
    ]
    assert "␊" not in said


def test_a_short_message_is_shown_whole():
    said = _said("failed", "exit code 3")
    assert said.splitlines()[0] == "→ check failed: exit code 3"


def test_the_no_expect_note_stays_on_the_step_line_above_the_hint():
    said = _said("failed", "exit code 1\n  hint: see stderr", Step(id="check", run="false"))
    assert said.splitlines() == [
        "→ check failed: exit code 1 (a step with no expect: passes when its command exits 0)",
        "  hint: see stderr",
    ]
