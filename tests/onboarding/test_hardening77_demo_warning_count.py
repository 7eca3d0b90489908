"""`spec-debug demo --step`, skipping the configs step: the drafter evaluation then measures the
sglang divergence's cost with no config to excuse it, and SD403 comes out as a warning, in
run.json and the report ("Warning (1)"), but the demo's verdict line said "FAILED: 3 error(s)"
and nothing of it. It now counts the warnings as `run` does: "FAILED: 3 error(s), 1 warning(s)"
(a demo with no warning keeps its short line)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.demo import demo_command


def test_demo_step_verdict_counts_the_reports_warnings(tmp_path: Path, monkeypatch):
    # run launch_flags and engine, skip configs, run the rest
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\nr\ns\n" + "r\n" * 5))
    out = io.StringIO()
    code = demo_command(False, tmp_path / "runs", Console(file=out, width=100, color_system=None), step=True)
    assert code == 1
    (run_dir,) = (tmp_path / "runs").iterdir()
    findings = json.loads((run_dir / "run.json").read_text())["findings"]
    assert [(f["code"], f["severity"]) for f in findings if f["severity"] != "info"] == [
        ("SD101", "error"), ("SD402", "error"), ("SD403", "warning"), ("SD501", "error")]
    verdict = next(line for line in out.getvalue().splitlines() if line.startswith("FAILED:"))
    assert verdict.startswith("FAILED: 3 error(s), 1 warning(s) · report: "), verdict
