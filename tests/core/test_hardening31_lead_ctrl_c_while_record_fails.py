"""Ctrl-C while the run is already stopping for a record it cannot write.

The run folder removed mid-step (a cleanup of runs/) stops the run: the hosts are interrupted,
which kills each running step's process tree (SIGTERM, half a second's grace, then SIGKILL).
A Ctrl-C inside that grace was raised in the main thread in the middle of the kill: the
SIGKILL never came, and a step that outlives SIGTERM held the CLI until it ended on its own
(here: never). Signals are now queued while the run goes on, so the kill finishes and the
run ends with the one-line error it was already giving.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.core.test_hardening8_second_signal import _pid_alive

# The step removes the run folder itself (the next record write finds it gone), then outlives
# SIGTERM: its trap notes the signal and the loop starts another sleep.
PLAYBOOK = """\
name: vanishing
vars:
  out: ""
  marker: ""
steps:
  - id: first
    run: echo one
  - id: server
    run: |
      trap 'echo term >> {{ marker }}.term' TERM
      rm -rf {{ out }}
      echo $$ > {{ marker }}
      while :; do sleep 60 & wait; done
"""


def test_ctrl_c_during_the_kill_of_a_run_whose_folder_was_removed_still_kills_the_step(tmp_path):
    playbook = tmp_path / "vanishing.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    marker = tmp_path / "server.pid"
    term_seen = tmp_path / "server.pid.term"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out),
         "--var", f"out={out}", "--var", f"marker={marker}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300"},
    )
    try:
        deadline = time.monotonic() + 20
        while not term_seen.exists():
            assert time.monotonic() < deadline and proc.poll() is None, "the step was never sent SIGTERM"
            time.sleep(0.005)
        proc.send_signal(signal.SIGINT)  # inside the half second kill_tree grants SIGTERM
        _, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    step_pid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while _pid_alive(step_pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _pid_alive(step_pid), "the step outlived the run"
    said = " ".join(stderr.split())
    assert proc.returncode == 3, said
    assert "was removed while the run went on" in said
    assert "Traceback" not in said
