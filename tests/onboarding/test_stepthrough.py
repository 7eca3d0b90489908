"""`run --step` driven through a real pseudo-terminal: run, skip, quit."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

PLAYBOOK = """
name: walk
steps:
  - id: first
    title: First look
    why: Shows the engine version.
    run: echo first-ran
  - id: second
    title: Second look
    why: Reads the launch flags.
    run: echo second-ran
  - id: third
    title: Third look
    why: Never reached when the user quits.
    run: echo third-ran
"""


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class PtySession:
    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, close_fds=True,
                                     env={**os.environ, "COLUMNS": "120", "TERM": "xterm"})
        os.close(slave)
        # The bytes as they come, decoded whole: a read can end inside a character ("→", "…"),
        # and each read decoded on its own made that character U+FFFD.
        self.raw = bytearray()

    @property
    def screen(self) -> str:
        return self.raw.decode("utf-8", "replace")

    def expect(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in _ANSI.sub("", self.screen):
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen}")
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.raw.extend(os.read(self.master, 65536))
                except OSError:
                    break

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait(self, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.raw.extend(os.read(self.master, 65536))
                except OSError:
                    pass
        return self.proc.wait(timeout=1)


def test_step_through_run_skip_quit(tmp_path):
    playbook = tmp_path / "walk.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    session = PtySession([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--step", "--out", str(out)], tmp_path)
    session.expect("Shows the engine version.")
    session.expect("echo first-ran")  # the exact command is shown before it runs
    session.expect("quit")
    session.send("r")
    session.expect("first passed")
    session.expect("Reads the launch flags.")
    session.send("s")
    session.expect("Never reached when the user quits.")
    session.send("q")
    code = session.wait()
    assert code == 3  # quitting aborts the run
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    statuses = {s["id"]: s["status"] for s in record["steps"]}
    assert statuses == {"first": "passed", "second": "skipped"}
    assert record["steps"][0]["stdout"] == "first-ran\n"
    assert record["status"] == "aborted"
    assert (run_dir / "report.md").exists()
