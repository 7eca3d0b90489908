"""Ctrl-C while the run is already stopping for a record it cannot write.

The run folder removed mid-step (a cleanup of runs/) stops the run: the hosts are interrupted,
which kills each running step's process tree (SIGTERM, half a second's grace, then SIGKILL).
A Ctrl-C inside that grace was raised in the main thread in the middle of the kill: the
SIGKILL never came, and a step that outlives SIGTERM held the CLI until it ended on its own
(here: never). Signals are now queued while the run goes on, so the kill finishes and the
run ends with the one-line error it was already giving.

The step's SIGTERM trap sends the Ctrl-C itself, so it always lands inside the grace (before the
SIGKILL that ends the trap's shell). The test used to wait for the trap's note and send it: on
a loaded machine the note could come too late for the grace, or never (the SIGKILL first).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.core.test_hardening8_second_signal import _pid_alive

# The step removes the run folder itself (the next record write finds it gone), then outlives
# SIGTERM: its trap presses Ctrl-C on the CLI and the loop starts another sleep.
PLAYBOOK = """\
name: vanishing
vars:
  out: ""
  marker: ""
  cli: ""
steps:
  - id: first
    run: echo one
  - id: server
    run: |
      until [ -s {{ cli }} ]; do sleep 0.05; done
      trap 'read cli < {{ cli }}; kill -INT $cli' TERM
      rm -rf {{ out }}
      echo $$ > {{ marker }}
      while :; do sleep 60 & wait; done
"""


def test_ctrl_c_during_the_kill_of_a_run_whose_folder_was_removed_still_kills_the_step(tmp_path):
    playbook = tmp_path / "vanishing.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    marker = tmp_path / "server.pid"
    cli = tmp_path / "cli.pid"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out),
         "--var", f"out={out}", "--var", f"marker={marker}", "--var", f"cli={cli}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300"},
    )
    try:
        cli.write_text(f"{proc.pid}\n")  # the step waits for it
        # The step never ends by itself: a run that waited for it is killed here and fails.
        _, stderr = proc.communicate(timeout=60)
        step_pid = int(marker.read_text())
        deadline = time.monotonic() + 30
        while _pid_alive(step_pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        outlived = _pid_alive(step_pid)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        # The step loops for good: a survivor is killed also when the test fails (a run that
        # waited for it ends on communicate's timeout above).
        if marker.exists() and marker.read_text().strip() and _pid_alive(int(marker.read_text())):
            try:
                os.killpg(int(marker.read_text()), signal.SIGKILL)  # its own session (start_new_session)
            except ProcessLookupError:
                pass
    assert not outlived, "the step outlived the run"
    said = " ".join(stderr.split())
    assert proc.returncode == 3, said
    assert "was removed while the run went on" in said
    assert "Traceback" not in said
