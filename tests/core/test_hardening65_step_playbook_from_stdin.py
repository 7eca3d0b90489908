"""`curl -s URL | spec-debug run /dev/stdin --step` (docs/playbooks.md shows the pipe for a run):
--step read its answers from the same stdin the playbook had just been read to its end, so the
first prompt read "end of input", and the run quit before its first step (exit 3, a run folder
of nothing). The answers now come from the terminal (/dev/tty), as ssh asks for a password there
when its stdin is a pipe; with no terminal (a CI job) the run is refused before a run folder is
made, saying to save the playbook to a file."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import subprocess
import sys
import termios
import time
from pathlib import Path

PLAYBOOK = """\
name: stepped
steps:
  - id: first
    run: echo first-ran
  - id: second
    run: echo second-ran
"""

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


def test_without_a_terminal_it_is_refused_before_a_run_folder_is_made(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", "/dev/stdin", "--host", "local", "--out", str(out), "--step"],
        input=PLAYBOOK, capture_output=True, text=True, timeout=60, env=_env(), cwd=tmp_path,
        start_new_session=True,  # no controlling terminal, as in a CI job
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines()[:2] == [
        "error: --step reads its answers from standard input, and the playbook (or a --var-file) was read from "
        "it: no answer is left to read, and there is no terminal to ask",
        "  hint: save the playbook to a file first (e.g. curl -s URL -o playbook.yaml) and run that with --step",
    ]
    assert not out.exists() or not any(out.iterdir())


def test_with_a_terminal_the_answers_are_read_there(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    master, slave = pty.openpty()

    def on_the_terminal() -> None:  # the child's controlling terminal is the pty; stdin stays the pipe
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", "/dev/stdin", "--host", "local", "--out", str(out), "--step", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), cwd=tmp_path,
        preexec_fn=on_the_terminal, pass_fds=(slave,),
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(PLAYBOOK.encode())
        proc.stdin.close()
        time.sleep(0.5)
        os.write(master, b"r\ns\n")  # run the first step, skip the second
        proc.wait(timeout=60)
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, stderr.decode()
    steps = json.loads(stdout)["steps"]
    assert [(s["id"], s["status"], s["stdout"]) for s in steps] == [
        ("first", "passed", "first-ran\n"), ("second", "skipped", ""),
    ]
