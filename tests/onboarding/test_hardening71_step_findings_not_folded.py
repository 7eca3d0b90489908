"""`spec-debug demo --step 2>&1 | tee log` (or any --step run off a terminal): the step-through's
finding lines were folded at 80 columns, inside the command the remediation gives to paste:

    what to do: Serve with 3 steps: --speculative-num-steps 3
    --speculative-eagle-topk 1 --speculative-num-draft-tokens 4

The run's own progress lines and the error hints are printed unfolded (soft_wrap) for that
reason; the step-through's "→" line, the finding's title and its "what to do" now are too."""

from __future__ import annotations

import io

from rich.console import Console

from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.stepthrough import TerminalGate

FIX = ("Serve with 3 steps: --speculative-num-steps 3 --speculative-eagle-topk 1 "
       "--speculative-num-draft-tokens 4 (the draft /srv/models/kimi-k2.5-eagle3-draft-v2 was trained for 3)")
TITLE = "Speculation capped at one drafted token per round on gpu01 with /srv/models/kimi-k2.5-eagle3-draft-v2"


def _said(width: int, *, terminal: bool) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, emoji=False, force_terminal=terminal)
    gate = TerminalGate(console)
    finding = Finding(code="SD101", severity="error", title=TITLE, host="gpu01", step="launch_flags", remediation=FIX)
    gate.after_step("gpu01", Step(id="launch_flags", probe="launch_flags"),
                    StepRecord(id="launch_flags", host="gpu01", status="passed"), [finding])
    return out.getvalue().splitlines()


def test_off_a_terminal_each_line_is_whole():
    assert _said(80, terminal=False) == [
        "→ launch_flags ran; its checks found a problem:",
        f"  SD101 (error): {TITLE}",
        f"    what to do: {FIX}",
    ]


def test_on_a_narrow_terminal_the_terminal_wraps_it():
    lines = [line for line in _said(60, terminal=True) if line.strip()]
    assert len(lines) == 3 and lines[2].endswith(FIX)
