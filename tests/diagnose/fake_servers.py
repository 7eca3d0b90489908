"""Fake serving processes for the probe tests: real processes (they only sleep) whose command
lines are a server's, as launch_flags.server_processes reports them from /proc."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def server_process(argv: list[str], **popen) -> Iterator[dict]:
    """A real process whose command line is the given server's (it only sleeps), as
    launch_flags.server_processes reports it."""
    proc = subprocess.Popen(argv, **popen)
    try:
        time.sleep(0.2)
        raw = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        yield {"pid": proc.pid, "ppid": os.getpid(), "argv": [a.decode() for a in raw.split(b"\0") if a]}
    finally:
        proc.kill()
        proc.wait()
