"""Round 30 (lead): SIGINT and SIGTERM at the same moment (a CI cancelling a job sends both; seen
as a 1-in-3 failure of test_hardening8_second_signal in CI). The SIGTERM handler raised while
the Ctrl-C's KeyboardInterrupt unwound through threading.Condition.__exit__ in the engine's wait,
and what came out was RuntimeError('release unlocked lock'): it skipped the Ctrl-C path, and
shutting the host pool down waited for the step, which ignores SIGTERM (the run hung for the
step's whole length, 6 runs in 6). Now the interrupts behind it are found: the step is killed
and the aborted record written, with the first signal's reason."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from spec_debug.store import load_record
from tests.core.test_hardening8_second_signal import _pid_alive

STUBBORN = """\
name: stubborn
vars:
  marker: ""
steps:
  - id: server
    run: trap '' TERM; echo $$ > {{ marker }}; sleep 60
"""


def test_sigint_and_sigterm_at_once_still_stop_the_run(tmp_path):
    playbook = tmp_path / "stubborn.yaml"
    playbook.write_text(STUBBORN)
    marker, out = tmp_path / "server.pid", tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out),
         "--var", f"marker={marker}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60  # the CLI's start, which a loaded machine stretches
        while not (marker.exists() and marker.read_text().strip()):
            assert time.monotonic() < deadline and proc.poll() is None, "the step never started"
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGINT)
        os.kill(proc.pid, signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        if marker.exists() and marker.read_text().strip() and _pid_alive(int(marker.read_text())):
            os.killpg(int(marker.read_text()), signal.SIGKILL)  # a survivor, not a pid reused since
    assert "Traceback" not in stderr, stderr
    assert proc.returncode == 3, stderr
    record = load_record(next(out.iterdir()))
    assert (record.status, record.abort_reason) == ("aborted", "interrupted (Ctrl-C)")
    assert [(s.id, s.status) for s in record.steps] == [("server", "error")]
