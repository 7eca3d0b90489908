"""Faults the SSH tests inject into real servers."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from tests.sshd_fixture import SshServer


def stop_when_running(server: SshServer, argv: list[str], *, within_s: float = 30.0) -> threading.Thread:
    """Stop `server` (the host goes down) as soon as one of its sessions runs exactly `argv`.

    Returns the started watcher; join it before the test ends, so that the fixture's own
    stop() does not race this one.
    """
    wanted = b"".join(arg.encode() + b"\0" for arg in argv)

    def watch() -> None:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            for pid in server.connection_pids():
                try:
                    if Path(f"/proc/{pid}/cmdline").read_bytes() == wanted:
                        server.stop()
                        return
                except OSError:
                    continue  # the process ended while we looked
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher


def freeze(server: SshServer, pids: list[int]) -> None:
    """Stop (SIGSTOP) every process serving `server`'s connections: sshd hung while its kernel
    still acknowledges packets. The pids go into `pids` (the `frozen` fixture lets them go)."""
    for pid in server.connection_pids():
        os.kill(pid, signal.SIGSTOP)
        pids.append(pid)
