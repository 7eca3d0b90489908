"""`demo --step`, answering s at the engine step: the later steps could not look, and their notes
said so in the probe's words, "engine forward not read: engine unknown: pass --var engine=sglang|vllm",
at the step and again in the demo's closing lines, though the demo takes no --var. The "pass --var"
advice is dropped and the note says which skipped step it waited for."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

from rich.console import Console

from spec_debug.demo import not_checked_reason
from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.stepthrough import TerminalGate

UNKNOWN = "engine forward not read: engine unknown: pass --var engine=sglang|vllm"


def _note(step: str, evidence: str) -> Finding:
    return Finding(code="SD004", severity="info", title="Not checked: --var engine=sglang|vllm", host="demo-gpu01",
                   step=step, evidence=[evidence])


def test_the_reason_drops_the_var_advice_and_names_the_skipped_step():
    assert not_checked_reason(_note("reference_forward", UNKNOWN), ["engine"]) == (
        "engine forward not read: engine unknown (you skipped engine, which finds the engine this step reads)")
    assert not_checked_reason(_note("engine", "no version (run it inside the container, or pass --var engine_version)"),
                              ["launch_flags"]) == (
        "no version (run it inside the container) (you skipped launch_flags, which finds the models and engine "
        "this step reads)")


def test_a_reason_with_no_skip_and_no_advice_is_kept():
    said = "engine forward not read: sglang is not installed in this Python"
    assert not_checked_reason(_note("reference_forward", said), []) == said
    assert not_checked_reason(_note("reference_forward", said), ["vocab"]) == said


def test_the_gate_says_it_after_the_engine_step_was_skipped():
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, emoji=False)
    gate = TerminalGate(console, stdin=io.StringIO("s\n"), takes_vars=False)
    assert gate.before_step("demo-gpu01", Step(id="engine", probe="engine_info"), "python3 x") == "skip"
    gate.after_step("demo-gpu01", Step(id="reference_forward", probe="forward_source"),
                    StepRecord(id="reference_forward", host="demo-gpu01", status="passed"),
                    [_note("reference_forward", UNKNOWN)])
    assert out.getvalue().splitlines()[-1] == (
        "  SD004 (info): not checked on this host: engine forward not read: engine unknown "
        "(you skipped engine, which finds the engine this step reads)")


def test_demo_step_skipping_engine_never_asks_for_a_var(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "demo", "--step", "--out", str(tmp_path)],
                          capture_output=True, text=True, input="r\ns\nr\nr\nr\nr\nq\n", timeout=300,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    said = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    assert proc.returncode == 3, said
    assert "--var" not in said, said
    assert ("  not checked on the simulated host (reference_forward): engine forward not read: engine unknown "
            "(you skipped engine, which finds the engine this step reads)") in said.splitlines(), said
