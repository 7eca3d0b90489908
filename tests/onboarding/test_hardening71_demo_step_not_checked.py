"""`spec-debug demo --step` told its user, at reference_forward:

    SD004 (info): Not checked: --var python=the server's interpreter (the one sglang is installed in)
      what to do: Provide what the title names after "Not checked:" (most often a `--var
      NAME=VALUE` on the `spec-debug run` line) and run again.

The demo takes no --var (its closing lines say why the step could not look instead:
demo._say_result). The step-through of the demo now says the same: "not checked on this host:"
and the note's evidence; `run --step` keeps the title and its fix, which it can act on."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.stepthrough import TerminalGate

REASON = "engine forward not read: sglang is not installed in this Python"
NOTE = Finding(code="SD004", severity="info", title="Not checked: --var python=the server's interpreter",
               host="demo-gpu01", step="reference_forward", evidence=[REASON],
               remediation='Provide what the title names after "Not checked:" and run again.')


def _said(gate_kwargs: dict, findings: list[Finding]) -> list[str]:
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, width=200, color_system=None), **gate_kwargs)
    gate.after_step("demo-gpu01", Step(id="reference_forward", probe="forward_source"),
                    StepRecord(id="reference_forward", host="demo-gpu01", status="passed"), findings)
    return out.getvalue().splitlines()


def test_the_demo_gate_says_why_not_which_var():
    assert _said({"takes_vars": False}, [NOTE]) == [
        "→ reference_forward ran, but not everything was checked:",  # round 73: was "passed; notes:"
        f"  SD004 (info): not checked on this host: {REASON}",
    ]


def test_other_findings_and_run_step_keep_title_and_fix():
    problem = Finding(code="SD101", severity="error", title="Speculation capped", remediation="Serve with 3 steps")
    assert _said({"takes_vars": False}, [problem])[1:] == ["  SD101 (error): Speculation capped",
                                                          "    what to do: Serve with 3 steps"]
    # round 72: run --step also says what went unchecked and why (the note's evidence)
    assert _said({}, [NOTE])[1:] == [f"  SD004 (info): {NOTE.title}", f"    {REASON}",
                                     f"    what to do: {NOTE.remediation}"]


def test_demo_step_end_to_end(tmp_path: Path, monkeypatch):
    from spec_debug.demo import demo_command

    # run launch_flags, engine and reference_forward; skip the rest
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nr\ns\ns\ns\nr\ns\ns\n"))
    out = io.StringIO()
    demo_command(False, tmp_path / "runs", Console(file=out, width=200, color_system=None), step=True)
    said = out.getvalue()
    walk = said.split("→ reference_forward", 1)[1].split("run (r, Enter)", 1)[0]
    assert "SD004 (info): not checked on this host: engine forward not read:" in walk, walk
    assert "what to do" not in walk and "--var" not in walk.split("demo-gpu01", 1)[0], walk
