"""`spec-debug demo --step` where the newcomer answers s (skip) to every step: the incident host
has three serving bugs, yet the demo closed with "PASSED: 0 error(s)" and "Now run the fixed
configuration: spec-debug demo --healthy", as if the broken host had come out clean. `run`
says "nothing was checked: every step was skipped" in that case (cli_run._say_verdict); the
demo now says it too, names the steps skipped by choice, and sends the reader back to the demo
instead of to the fixed configuration."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STEPS = ["launch_flags", "engine", "configs", "vocab", "hidden_layout", "reference_forward", "drafter_eval", "throughput"]


def _demo_step(tmp_path: Path, answers: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "spec_debug", "demo", "--step", "--out", str(tmp_path / "runs")],
                          input=answers, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)


def test_skipping_every_step_of_the_broken_demo_is_not_a_clean_bill(tmp_path: Path) -> None:
    proc = _demo_step(tmp_path, "s\n" * len(STEPS))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    verdict = next(line for line in lines if line.startswith("PASSED: "))
    assert verdict.startswith("PASSED: 0 error(s) · nothing was checked: every step was skipped · report: ")
    assert f"  skipped (your choice): {', '.join(STEPS)}" in lines
    assert "Now run the fixed configuration: spec-debug demo --healthy" not in proc.stderr
    assert "See the incident's findings: spec-debug demo (or demo --step, answering r)" in lines


def test_skipping_some_steps_names_them_and_keeps_the_findings_of_the_rest(tmp_path: Path) -> None:
    proc = _demo_step(tmp_path, "r\n" + "s\n" * (len(STEPS) - 1))
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.splitlines()
    assert "  SD101 Speculation capped at one drafted token per round" in lines
    verdict = next(line for line in lines if line.startswith("FAILED: "))
    assert "nothing was checked" not in verdict
    assert f"  skipped (your choice): {', '.join(STEPS[1:])}" in lines
    assert "Now run the fixed configuration: spec-debug demo --healthy" in lines
