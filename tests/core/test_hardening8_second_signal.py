"""The impatient second Ctrl-C: pressed while the first is still stopping the run.

The first Ctrl-C kills the running step's process tree (SIGTERM, half a second's grace, then
SIGKILL) and writes the aborted record. A second Ctrl-C inside that grace used to cut the
SIGKILL short: a step that ignores SIGTERM (a server doing its own shutdown, `trap '' TERM`)
then ran to its end while the CLI waited for it, the run exited 130 and run.json stayed
"running" with no reports. CI cancelling a job sends SIGINT then SIGTERM the same way
(GitHub Actions runner: SIGINT, then SIGTERM, then SIGKILL).

The step itself sends the second signal, from its SIGTERM trap: it always lands inside the
grace (before the SIGKILL that ends the trap's shell). A test that slept 0.2 s after the first
signal missed the grace on a loaded machine and sent it while the reports were written (exit 3
without reports, by design: test_hardening23_core_interrupted_outputs).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.store import load_record

STUBBORN = """\
name: stubborn
vars:
  marker: ""
  cli: ""
  second: ""
steps:
  - id: first
    run: echo one
  - id: server
    title: a process that finishes its own shutdown before it obeys SIGTERM
    run: |
      trap 'read cli < {{ cli }}; kill -{{ second }} $cli' TERM
      echo $$ > {{ marker }}
      while :; do sleep 60 & wait; done
  - id: after
    run: echo never
"""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:  # reaped between the two looks
        return False
    return state[state.rfind(")") + 2] != "Z"


@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c-twice", "ci-cancel"])
def test_a_second_signal_while_the_first_stops_the_run_still_kills_the_step_and_writes_an_aborted_record(tmp_path, second):
    playbook = tmp_path / "stubborn.yaml"
    playbook.write_text(STUBBORN)
    marker = tmp_path / "server.pid"
    out = tmp_path / "runs"
    cli = tmp_path / "cli.pid"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out),
         "--var", f"marker={marker}", "--var", f"cli={cli}", "--var", f"second={second.name}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "300"},
    )
    try:
        cli.write_text(f"{proc.pid}\n")  # before the first signal, so before the trap reads it
        deadline = time.monotonic() + 60
        while not (marker.exists() and marker.read_text().strip()):
            assert time.monotonic() < deadline and proc.poll() is None, "the step never started"
            time.sleep(0.02)
        step_pid = int(marker.read_text())
        proc.send_signal(signal.SIGINT)  # the step's trap sends the second one inside the grace
        # The step never ends by itself: a run that waited for it is killed here and fails.
        _, stderr = proc.communicate(timeout=60)
        # SIGKILLed before the run ended, it is gone once scheduled (a loaded machine may wait).
        deadline = time.monotonic() + 30
        while _pid_alive(step_pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        outlived = _pid_alive(step_pid)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        if marker.exists() and marker.read_text().strip() and _pid_alive(int(marker.read_text())):
            try:
                os.killpg(int(marker.read_text()), signal.SIGKILL)  # its own session (start_new_session)
            except ProcessLookupError:
                pass

    assert "Traceback" not in stderr, stderr
    assert proc.returncode == 3, stderr  # aborted, as documented; not 130 nor click's 1
    assert not outlived, "the step's process outlived the run"

    run_dir = next(out.iterdir())
    record = load_record(run_dir)
    assert record.status == "aborted" and record.abort_reason == "interrupted (Ctrl-C)"
    assert record.finished_at is not None
    assert [(s.id, s.status) for s in record.steps] == [("first", "passed"), ("server", "error")]
    assert record.steps[1].message == "interrupted: Ctrl-C"  # the reason once, not "interrupted: interrupted (Ctrl-C)"
    assert [h.status for h in record.hosts] == ["aborted"]
    assert (run_dir / "report.md").is_file() and (run_dir / "report.html").is_file()
    assert "ABORTED" in (run_dir / "report.md").read_text()
    assert json.loads((run_dir / "run.json").read_text())["status"] == "aborted"
    assert not list(run_dir.glob(".run.json.*.tmp"))
