"""`run --step` on a fleet, Ctrl-C at the prompt of a host that had already run a step.

The first host passed; at the second host's second prompt the user pressed Ctrl-C. The run
ended on "ABORTED: 0 error(s)" with no line for that host: it was neither among the hosts
"aborted before its first step" (it had run one) nor did a step line say it was stopped (the
step was never started). Now the host's line says it stopped and why. A real terminal (pty),
a real SIGINT to the foreground group; the hosts are this machine twice (an inventory).
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_ctrl_c_at_a_later_hosts_prompt_names_that_host(tmp_path):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: two\n    run: echo two\n")
    (tmp_path / "hosts.ini").write_text("[gpus]\na ansible_connection=local\nb ansible_connection=local\n")
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "hosts.ini", "--step", "--out", "runs"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, close_fds=True,
                            env={**os.environ, "COLUMNS": "120", "TERM": "xterm"}, start_new_session=True)
    os.close(slave)
    screen = ""

    def read_until(text: str, count: int = 1, timeout: float = 30) -> None:
        nonlocal screen
        deadline = time.monotonic() + timeout
        while _ANSI.sub("", screen).count(text) < count:
            assert time.monotonic() < deadline, f"{text!r} never appeared {count} time(s):\n{screen}"
            if select.select([master], [], [], 0.1)[0]:
                try:
                    screen += os.read(master, 65536).decode("utf-8", "replace")
                except OSError:
                    break

    try:
        for prompt in range(1, 4):  # a: one, two; b: one
            read_until("quit (q)?", prompt)
            os.write(master, b"r\n")
        read_until("quit (q)?", 4)  # b: two
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the terminal's foreground group
        assert proc.wait(timeout=30) == 3
        read_until("ABORTED")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    out = _ANSI.sub("", screen)
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    assert [(h["name"], h["status"]) for h in record["hosts"]] == [("a", "passed"), ("b", "aborted")]
    assert "host b aborted before its next step: interrupted (Ctrl-C)" in out, out
    assert "host a aborted" not in out
