"""A step with `retries:` stopped (SIGTERM, as Ctrl-C) while it waited to retry: its last
attempt had run to its end (a health check that answered exit code 7), and the record said only
"interrupted: terminated (SIGTERM)", with "nothing was checked: no step ran to an answer", so the
user lost what the tries had said. Now the step's message keeps it: "interrupted: terminated
(SIGTERM); it was waiting to retry (attempt 1 of 6 failed: exit code 1)". The step stays an
error (its retries were cut short: no verdict). Real `spec-debug run --host local` runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[str]:
    tasks = Path(f"/proc/{pid}/task")
    return [child for task in tasks.iterdir() for child in (task / "children").read_text().split()]


def _stopped_while_waiting(tmp_path: Path, step: str) -> dict:
    marker = tmp_path / "tried"
    (tmp_path / "p.yaml").write_text(f"name: r\nsteps:\n  - id: r\n{step}    retries: 5\n    retry_delay: 60\n"
                                     "  - id: after\n    run: echo after\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "MARK": str(marker)}
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists()
        # The attempt's shell ends after the marker; on a loaded machine that can take longer than
        # any fixed sleep, so wait until the run has no child left, then give it a moment to judge
        # the attempt and begin the wait to retry.
        while _children(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3
    return json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


def test_a_failed_attempt_is_kept_when_the_wait_to_retry_is_stopped(tmp_path: Path) -> None:
    record = _stopped_while_waiting(tmp_path, '    run: touch "$MARK"; exit 7\n')
    assert record["status"] == "aborted"
    [step] = record["steps"]
    assert step["status"] == "error"
    assert step["exit_code"] == 7
    assert step["message"] == ("interrupted: terminated (SIGTERM); it was waiting to retry "
                               "(attempt 1 of 6 failed: exit code 7)")
    assert record["findings"] == []


def test_a_failed_expectation_is_kept_too(tmp_path: Path) -> None:
    record = _stopped_while_waiting(tmp_path, '    run: touch "$MARK"; echo starting\n'
                                              '    expect:\n      - contains: ready\n')
    [step] = record["steps"]
    assert step["message"] == ("interrupted: terminated (SIGTERM); it was waiting to retry "
                               "(attempt 1 of 6 failed: expected output contains 'ready', observed not found)")
