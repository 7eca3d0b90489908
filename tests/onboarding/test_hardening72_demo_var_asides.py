"""`demo --step`, answering s at launch_flags and r after: the notes drop a probe's "pass --var"
advice (the demo takes no --var), but a piece of it stayed where the advice ended in an aside
or was one: the vocab step said "not checked on this host: no draft checkpoint)" (from "no
draft checkpoint: pass --var draft_model=DIR (or a server command naming it)"), and the
drafter_eval step "needs a draft checkpoint (--var draft_model) ...", a --var the demo's user
cannot pass. The aside goes with the advice, and a parenthesised "(--var ...)" goes too."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.demo import demo_command, not_checked_reason
from spec_debug.record import Finding

SKIPPED = " (you skipped launch_flags, which finds the models and engine this step reads)"


def _note(step: str, evidence: str) -> Finding:
    return Finding(code="SD004", severity="info", title="Not checked: --var draft_model=DIR", host="demo-gpu01",
                   step=step, evidence=[evidence])


def test_an_aside_after_the_advice_goes_with_it():
    said = "no draft checkpoint: pass --var draft_model=DIR (or a server command naming it)"
    assert not_checked_reason(_note("vocab", said), ["launch_flags"]) == "no draft checkpoint" + SKIPPED


def test_the_advice_in_parentheses_goes():
    said = ("x.py: this Python (3.8.10) cannot parse it (invalid syntax, line 3); run the probe with the "
            "engine's interpreter (--var python=...)")
    assert not_checked_reason(_note("reference_forward", said), []) == (
        "x.py: this Python (3.8.10) cannot parse it (invalid syntax, line 3); run the probe with the "
        "engine's interpreter")
    assert not_checked_reason(_note("drafter_eval", "needs a draft checkpoint (--var draft_model)"),
                              ["launch_flags"]) == "needs a draft checkpoint" + SKIPPED


def test_an_aside_of_the_reason_itself_is_kept():
    said = "no version (run it inside the container, or pass --var engine_version)"
    assert not_checked_reason(_note("engine", said), []) == "no version (run it inside the container)"


def test_demo_step_skipping_launch_flags_never_asks_for_a_var(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("s\nr\nr\nr\nr\nr\nr\nr\n"))
    out = io.StringIO()
    demo_command(False, tmp_path / "runs", Console(file=out, width=400, color_system=None), step=True)
    lines = out.getvalue().splitlines()
    assert "  SD004 (info): not checked on this host: no draft checkpoint" + SKIPPED in lines, lines
    assert "  not checked on the simulated host (vocab): no draft checkpoint" + SKIPPED in lines, lines
    assert not [line for line in lines if "--var" in line], lines
