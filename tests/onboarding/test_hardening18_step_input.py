"""`run --step` started where there is no stdin at all: a job runner or a daemon that closed
file descriptor 0 (`<&-`). Python then sets sys.stdin to None."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

WALK = """
name: walk
steps:
  - id: first
    why: Shows the engine version.
    run: echo first-ran
  - id: second
    run: echo second-ran
"""


def test_step_through_with_stdin_closed_quits_as_at_end_of_input(tmp_path):
    (tmp_path / "walk.yaml").write_text(WALK)
    # bash closes fd 0 before exec, as `spec-debug run ... --step <&-` does in a shell.
    proc = subprocess.run(
        ["bash", "-c", 'exec "$@" <&-', "_", sys.executable, "-m", "spec_debug", "run", "walk.yaml",
         "--host", "local", "--step", "--out", "runs"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1"},
    )
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    # Before: the host failed with "internal error: AttributeError: 'NoneType' object has no
    # attribute 'readline'" and the run was recorded as an error.
    assert "AttributeError" not in out and "internal error" not in out, out
    assert "end of input (stdin closed)" in out, out
    assert proc.returncode == 3, out  # quit before the end: aborted, as with </dev/null
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    assert record["status"] == "aborted"
    assert all(h["status"] != "error" for h in record["hosts"]), record["hosts"]
    assert not any("first-ran" in (s.get("stdout") or "") for s in record["steps"])


def test_step_through_reads_answers_from_a_file_object_that_is_closed(tmp_path):
    """The gate used by a library caller with its own (closed) stream: end of input too."""
    import io

    from rich.console import Console

    from spec_debug.playbook.loader import load_playbook_text
    from spec_debug.stepthrough import TerminalGate

    stream = io.StringIO("r\n")
    stream.close()
    console = Console(file=io.StringIO(), width=80)
    gate = TerminalGate(console, stdin=stream)
    step = load_playbook_text(WALK).steps[0]
    assert gate.before_step("local", step, "echo first-ran") == "quit"
    assert "end of input" in console.file.getvalue()


def test_ctrl_c_while_a_stepped_command_runs_says_it_was_stopped_not_that_it_could_not_run(tmp_path):
    import pty
    import select
    import signal
    import time

    running = tmp_path / "running"  # the step's command makes it: it runs then, not 1.5 s after "r"
    (tmp_path / "slow.yaml").write_text(f"name: slow\nsteps:\n  - id: wait\n    run: touch {running}; echo started; sleep 30\n")
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "slow.yaml", "--host", "local", "--step",
                             "--out", "runs"], stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, close_fds=True,
                            env={**os.environ, "COLUMNS": "120", "TERM": "xterm"}, start_new_session=True)
    os.close(slave)
    # The bytes as they come, decoded whole: a read can end inside a character ("→" is three
    # bytes), and each read decoded on its own made that character U+FFFD.
    raw = bytearray()

    def screen() -> str:
        return raw.decode("utf-8", "replace")

    def read_until(text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen()):
            assert time.monotonic() < deadline, f"{text!r} never appeared:\n{screen()}"
            if select.select([master], [], [], 0.1)[0]:
                try:
                    raw.extend(os.read(master, 65536))
                except OSError:
                    break

    try:
        read_until("quit (q)?")
        os.write(master, b"r\n")
        # The command is running once it made its file (a fixed 1.5 s could pass, on a loaded
        # machine, before the step started: the Ctrl-C then came at the prompt instead).
        deadline = time.monotonic() + 60
        while not running.exists():
            assert time.monotonic() < deadline and proc.poll() is None, f"the step never started:\n{screen()}"
            if select.select([master], [], [], 0.05)[0]:
                try:
                    raw.extend(os.read(master, 65536))
                except OSError:
                    pass
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the terminal's foreground group
        assert proc.wait(timeout=30) == 3
        read_until("ABORTED")  # already written: it exited; 30 s only for a stalled reader
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen())
    assert "→ wait was stopped while it ran: Ctrl-C; the run stops here." in out, out
    assert "could not run" not in out
