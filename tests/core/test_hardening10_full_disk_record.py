"""A run that fills the disk leaves a record that says so, with every step it ran.

Before: the last run.json that fit was the one written before the disk filled. It said
"running" and lacked the latest steps, so `spec-debug report` blamed the controller ("the
controller stopped before its final write (or is still running)"), and a run whose last write
failed after every step had passed looked unfinished. A record without the 256 KiB outputs takes
a few KiB: it is written with each output cut to its first and last lines, and says why.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import run_cli
from tests.core.test_record_faults import _in_private_tmpfs, needs_tmpfs

pytestmark = needs_tmpfs


def run_on_small_disk(tmp_path: Path, playbook: Path, size: str,
                      save_interval_s: float | None = None) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`spec-debug run` with --out on a private tmpfs of the given size (a real full disk, seen
    by that process only); the run folder is copied out for the asserts. save_interval_s paces
    the record's writes during the run (engine.SAVE_INTERVAL_S, 0.1 s)."""
    disk, saved = tmp_path / "disk", tmp_path / "saved"
    program = "-m spec_debug" if save_interval_s is None else (
        f"-c 'import spec_debug.runner.engine as e; e.SAVE_INTERVAL_S = {save_interval_s}; "
        "from spec_debug.cli import main; main()'")
    cli = f"{sys.executable} {program} run {playbook} --host local --out {disk}/runs"
    proc = _in_private_tmpfs(disk, f"size={size}", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    (run_dir,) = saved.iterdir()
    return proc, run_dir


def test_a_disk_that_fills_mid_run_leaves_an_aborted_record_with_every_step(tmp_path):
    playbook = tmp_path / "busy.yaml"
    playbook.write_text("name: busy\nsteps:\n" + "".join(
        f"  - id: s{i:02d}\n    run: seq 1 12000; sleep 0.02\n" for i in range(60)))
    proc, run_dir = run_on_small_disk(tmp_path, playbook, "700k")
    assert "Traceback" not in proc.stderr and proc.returncode == 3, proc.stderr[-2000:]
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "No space left on device" in errors[0], proc.stderr[-2000:]
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "aborted", record["status"]
    assert "No space left on device" in record["abort_reason"] and "previous version" not in record["abort_reason"]
    assert record["hosts"][0]["status"] == "aborted"
    ran = [s for s in record["steps"] if s["status"] == "passed"]
    assert ran and all(s["truncated"] and "cut so that run.json fits: No space left on device" in s["stdout"] for s in ran)
    assert all(s["stdout"].endswith("11999\n12000\n") for s in ran)  # the end of each output is kept
    report = run_cli("report", str(run_dir))
    assert report.code == 0 and "ABORTED" in report.stdout and "No space left on device" in report.stdout
    assert "did not finish" not in report.stdout


def test_a_run_whose_last_write_fills_the_disk_keeps_its_verdict(tmp_path):
    playbook = tmp_path / "big.yaml"
    playbook.write_text(
        "name: big\nsteps:\n  - id: small\n    run: echo ok\n"
        "  - id: big\n    run: seq 1 400000\n"  # 2.7 MB: spilled to artifacts, 256 KiB kept in the record
        "  - id: after\n    run: echo done\n")
    # The first write that holds big's output must be the last: a write during the run that
    # fails stops the run (the test above), and at 0.1 s between writes a step's write was one
    # whenever the three steps took longer than that (a loaded machine: 'aborted').
    proc, run_dir = run_on_small_disk(tmp_path, playbook, "250k", save_interval_s=60)
    assert "Traceback" not in proc.stderr and proc.returncode == 3, proc.stderr[-2000:]
    assert "in full: No space left on device" in proc.stderr and "spec-debug report" in proc.stderr, proc.stderr
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "passed" and [s["status"] for s in record["steps"]] == ["passed"] * 3
    big = record["steps"][1]
    assert big["stdout"].endswith("399999\n400000\n") and "cut so that run.json fits" in big["stdout"]
    report = run_cli("report", str(run_dir))
    assert report.code == 0 and "PASSED" in report.stdout
