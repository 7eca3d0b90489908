"""Faults the SSH tests inject into real servers."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from spec_debug.runner.output import StreamCapture
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


class StopOncePrinted:
    """Stop `server` (the host goes down) once the step has printed `started`: the command runs.
    A timer of 0.5 s from the call stopped it, on a loaded machine, before the command's channel
    was open, and the drop was then not one "during command". `stdout` is the step's capture;
    join() before the test ends (the fixture's stop() must not race this one)."""

    def __init__(self, server: SshServer) -> None:
        printed = threading.Event()
        self.stopped_at: list[float] = []
        self.stdout = StreamCapture("o", on_line=lambda _name, line: printed.set() if line == "started" else None)

        def stop() -> None:
            if printed.wait(60) and not self._done:
                self.stopped_at.append(time.monotonic())
                server.stop()

        self._printed, self._done = printed, False
        self._thread = threading.Thread(target=stop, daemon=True)
        self._thread.start()

    def join(self) -> None:
        self._done = True
        self._printed.set()
        self._thread.join()


def freeze(server: SshServer, pids: list[int]) -> None:
    """Stop (SIGSTOP) every process serving `server`'s connections: sshd hung while its kernel
    still acknowledges packets. The pids go into `pids` (the `frozen` fixture lets them go)."""
    for pid in server.connection_pids():
        os.kill(pid, signal.SIGSTOP)
        pids.append(pid)


# A step's own freeze of the sshd serving it: run on the host as `python3 SCRIPT LISTENERS
# FROZEN` (LISTENERS: a file of sshd listener pids, one a line; FROZEN: the file the stopped pids
# are added to, to be let go). It waits until sshd has read what the step printed (its stdout, a
# pipe or a socketpair, is empty) and every process under the listener that serves it sleeps
# (none preempted between reading the lines and sending them on), then stops them, itself
# last. A watcher thread polling /proc for the step's sleep froze it as late as the load made
# it, and past the step's timeout the kill got through.
FREEZE_FROM_STEP = r'''
import fcntl, os, signal, stat, struct, sys, termios, time

def fields(pid):
    with open(f"/proc/{pid}/stat", "rb") as f:
        return f.read().rsplit(b")", 1)[1].split()

def parent(pid):
    return int(fields(pid)[1])

def running(pid):
    try:
        return fields(pid)[0] == b"R"
    except (OSError, IndexError):
        return False

def children():
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                found.setdefault(parent(int(name)), []).append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return found

def unsent(fd):
    request = termios.FIONREAD if stat.S_ISFIFO(os.fstat(fd).st_mode) else termios.TIOCOUTQ
    return struct.unpack("i", fcntl.ioctl(fd, request, b"\0\0\0\0"))[0]

listeners = {int(line) for line in open(sys.argv[1]).read().split()}
pid = os.getpid()
while pid > 1 and pid not in listeners:
    pid = parent(pid)
until = time.monotonic() + 10
while unsent(1) and time.monotonic() < until:
    time.sleep(0.01)
if pid not in listeners:
    sys.exit("not under a listed sshd")
kids = children()
tree, todo = [], list(kids.get(pid, []))
while todo:
    one = todo.pop()
    tree.append(one)
    todo.extend(kids.get(one, []))
# sshd may have read the lines and been preempted before writing them to the client: stop it
# once it sleeps again (in its poll), not running.
while any(running(one) for one in tree if one != os.getpid()) and time.monotonic() < until:
    time.sleep(0.01)
with open(sys.argv[2], "a") as out:
    out.write("".join(f"{p}\n" for p in tree))
for one in tree:
    if one != os.getpid():
        os.kill(one, signal.SIGSTOP)
os.kill(os.getpid(), signal.SIGSTOP)
'''


def rc_holding_shell(tmp_path: Path, command_fragment: str) -> tuple[str, Path, Path]:
    """A BASH_ENV file (sshd_factory's set_env) that holds the step shell whose command holds
    `command_fragment` in its rc files until the `release` file exists, as a site's rc file
    loading modules from a hung NFS mount holds it: its pid line cannot come before. The shell
    ignores SIGPIPE and SIGHUP, so that the closed channel does not end it. Returns the
    set_env words, the `release` file, and the `waiting` file it touches once it waits.

    The shell is told by its command line (bash's BASH_EXECUTION_STRING): a file armed by an
    earlier step was taken by whichever shell came first, the end-of-step check's on a loaded
    machine. At most 60 s, so a failed test leaves nothing for long."""
    rc, release, waiting = tmp_path / "rc.sh", tmp_path / "release", tmp_path / "waiting"
    rc.write_text(
        f'case "$BASH_EXECUTION_STRING" in *{command_fragment}*) touch {waiting}; trap \'\' PIPE HUP; n=0; '
        f"while [ ! -e {release} ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done;; esac\n"
    )
    return f"BASH_ENV={rc}", release, waiting
