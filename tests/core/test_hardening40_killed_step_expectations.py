"""A step the interrupt killed is "interrupted", even when its expectations held on what it printed.

Ctrl-C (or SIGTERM, or a record the disk could not hold) kills the running step. A step with
no expectation said "error: interrupted"; one whose expectations only read its output
(`not_contains: CUDA out of memory`) was judged on the first second of its log and recorded
as passed, exit code 143, and the console printed "passed". The load it was meant to watch
never ran.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import uuid

from tests.conftest import only_run
from tests.core.test_run_local import _processes_with, _survivors


def test_a_step_killed_by_sigterm_is_not_passed_by_its_expectations(tmp_path, write_playbook):
    marker = f"sdkill{uuid.uuid4().hex[:8]}"
    playbook = write_playbook(
        f"""
name: load
steps:
  - id: load_test
    run: echo 'warming up'; bash -c 'exec -a {marker} sleep 120'
    expect:
      - not_contains: "CUDA out of memory"
"""
    )
    out = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _processes_with(marker):
        time.sleep(0.05)
    assert _processes_with(marker), "the step never started"
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 3, stderr
    assert "Traceback" not in stderr, stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    assert step["status"] == "error", step
    assert step["message"].startswith("interrupted: "), step["message"]
    assert "passed load_test" not in stderr and "error load_test" in stderr
    assert record["status"] == "aborted" and record["findings"] == []
    assert _survivors(marker) == []


def test_a_step_that_ended_on_its_own_keeps_its_pass(tmp_path, write_playbook):
    # The other side: a non-zero exit a step's expectations allow is its own answer, not a kill.
    playbook = write_playbook(
        """
name: grep
steps:
  - id: no_oom
    run: echo 'all good'; grep -q 'CUDA out of memory' /dev/null
    expect:
      - not_contains: "CUDA out of memory"
"""
    )
    out = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    (step,) = only_run(out)[1]["steps"]
    assert (step["status"], step["exit_code"]) == ("passed", 1)
