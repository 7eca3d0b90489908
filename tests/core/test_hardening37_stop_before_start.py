"""SIGTERM, SIGHUP or Ctrl-C before the run starts: while the playbook or a var file is read.

A playbook or var file on a FIFO (or a stalled NFS mount) blocks the read; a CI job cancelled
then sent SIGTERM, which reached Typer as a KeyboardInterrupt: exit 130, nothing on stderr, so
the job's log gave no reason. It now says what stopped it and exits 3 (aborted, as every other
stop of a run), and leaves no run folder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _stop_while_reading(tmp_path: Path, signum: int, *, var_file: bool) -> subprocess.CompletedProcess:
    fifo = tmp_path / "blocked"
    os.mkfifo(fifo)
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: s\n    run: echo hi\n")
    args = [str(playbook), "--var-file", str(fifo)] if var_file else [str(fifo)]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug.cli", "run", *args, "--host", "local", "--out", str(tmp_path / "runs")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )
    # Signalled once it blocks in open() of the FIFO (no writer ever comes).
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _blocked_on_fifo(proc.pid):
        time.sleep(0.1)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _blocked_on_fifo(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/wchan").read_text().strip() in {"fifo_open", "wait_for_partner"}
    except OSError:
        return False


@pytest.mark.parametrize(("signum", "reason"), [
    (signal.SIGTERM, "terminated (SIGTERM)"),
    (signal.SIGHUP, "hung up (SIGHUP"),
    (signal.SIGINT, "interrupted (Ctrl-C)"),
])
def test_signal_while_the_playbook_is_read_says_why(tmp_path: Path, signum: int, reason: str) -> None:
    done = _stop_while_reading(tmp_path, signum, var_file=False)
    assert done.returncode == 3, done.stderr
    assert "stopped before the run started" in done.stderr and reason in done.stderr
    assert "nothing was run or recorded" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_sigterm_while_a_var_file_is_read_says_why(tmp_path: Path) -> None:
    done = _stop_while_reading(tmp_path, signal.SIGTERM, var_file=True)
    assert done.returncode == 3, done.stderr
    assert "stopped before the run started: terminated (SIGTERM)" in done.stderr
    assert not (tmp_path / "runs").exists()
