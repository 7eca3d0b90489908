"""`spec-debug demo 2> demo.log` (off a terminal, so rich folds at 80 columns) wrote its note
"not checked on the simulated host (reference_forward): engine forward not" on one line and
"read: sglang is not installed in this Python" on the next, as it did the step names after
"skipped (your choice):": a grep of the log found half a sentence. The verdict line above them
was already never folded (soft_wrap); these two lines now are not either."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from spec_debug.demo import DemoResult, _say_result
from spec_debug.record import Finding, PlaybookRef, RunRecord, StepRecord
from spec_debug.runner.engine import SKIPPED_BY_USER

REASON = "engine forward not read: sglang is not installed in this Python"


def _record(steps: list[StepRecord], findings: list[Finding]) -> RunRecord:
    return RunRecord(run_id="r1", playbook=PlaybookRef(name="perf_regression", path="p.yaml", sha256="0"),
                     started_at="2026-12-06T00:00:00Z", status="passed", steps=steps, findings=findings)


def _said(record: RunRecord) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    result = DemoResult(record, Path("runs/r1"), {"md": Path("runs/r1/report.md"), "html": Path("runs/r1/report.html")},
                        Path("fixture"))
    _say_result(console, result, [], healthy=True, aborted=False)
    return out.getvalue().splitlines()


def test_the_not_checked_note_is_one_line():
    note = Finding(code="SD004", severity="info", title="Not checked", host="demo-gpu01",
                   step="reference_forward", evidence=[REASON])
    lines = _said(_record([StepRecord(id="reference_forward", host="demo-gpu01", status="passed")], [note]))
    assert f"  not checked on the simulated host (reference_forward): {REASON}" in lines, lines


def test_the_skipped_steps_are_one_line():
    ids = ["launch_flags", "engine", "configs", "vocab", "hidden_layout", "reference_forward", "drafter_eval"]
    steps = [StepRecord(id=i, host="demo-gpu01", status="skipped", message=SKIPPED_BY_USER) for i in ids]
    steps.append(StepRecord(id="throughput", host="demo-gpu01", status="passed"))
    lines = _said(_record(steps, []))
    assert f"  skipped (your choice): {', '.join(ids)}" in lines, lines
