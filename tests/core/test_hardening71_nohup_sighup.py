"""`nohup spec-debug run ... &`, then the SSH session ends: the run goes on.

nohup(1) starts its command with SIGHUP ignored (POSIX nohup; toybox toys/posix/nohup.c:
`xsignal(SIGHUP, SIG_IGN)`) so that it outlives its terminal. spec_debug.cli.main set its own
SIGHUP handler whatever the disposition it was given, and the hang-up at logout aborted the run
("interrupted: hung up (SIGHUP: ...)", exit 3): the long playbook one had nohup'd for exactly
this stopped at its first step. An ignored SIGHUP (or SIGTERM) is now left ignored; one that is
not still stops the run as before (the second test, which also shows the signal lands mid-run).
Through the real CLI, the child started with SIGHUP ignored as nohup starts it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run_and_hang_up(tmp_path: Path, *, ignored: bool) -> tuple[int, str, dict]:
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: a\n    run: sleep 2\n  - id: b\n    run: echo b\n")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "400",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}

    def as_nohup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--out", "runs"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=as_nohup if ignored else None)
    try:
        deadline = time.monotonic() + 60
        while True:  # step a is running: its record says so
            records = list((tmp_path / "runs").glob("*/run.json"))
            try:
                if records and json.loads(records[0].read_text())["hosts"][0]["status"] == "running":
                    break
            except (ValueError, KeyError, IndexError):
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "the run never started"
            time.sleep(0.02)
        time.sleep(0.3)
        proc.send_signal(signal.SIGHUP)
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, " ".join(stderr.split()), json.loads(records[0].read_text())


def test_a_run_started_with_sighup_ignored_outlives_the_hang_up(tmp_path):
    code, said, record = _run_and_hang_up(tmp_path, ignored=True)
    assert code == 0, said
    assert record["status"] == "passed" and record["abort_reason"] is None
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("a", "passed"), ("b", "passed")]
    assert "hung up" not in said


def test_a_run_not_started_so_is_still_stopped_by_the_hang_up(tmp_path):
    code, said, record = _run_and_hang_up(tmp_path, ignored=False)
    assert code == 3, said
    assert record["status"] == "aborted"
    assert record["abort_reason"] == "hung up (SIGHUP: the terminal or SSH session went away)"
