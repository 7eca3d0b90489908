"""A local fetch of a named pipe that no process writes to says so.

`cat` of a FIFO waits in open() until a writer opens it. The copy gave up after the stall limit
and said "its file system hangs (a dead NFS server or FUSE mount?)", sending the on-call
engineer to the mounts, where the log's writer (a server not started, writing elsewhere) was
the cause. The SSH copies: tests/ssh/test_hardening41_ssh_fifo_no_writer.py."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from spec_debug.runner import local

# The stall limit (120 s in a run), lowered only once the copy's child waits in cat's open() of
# the FIFO: it said the source is a FIFO before it exec'd cat. A low limit set from the start
# raced the child's start on a loaded machine (it had to say so before the limit), so the test
# waited out a 20 s limit instead. The limit is read at each look at the pipe.
STALL_S = 0.5


def _copy_waits_in_cat(fifo: Path) -> bool:
    """Some process is `cat -- FIFO` (GET_SCRIPT's last command): the copy's child."""
    wanted = b"\0".join([b"cat", b"--", os.fsencode(fifo)]) + b"\0"
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes() == wanted:
                return True
        except OSError:  # a process that ended while we looked
            continue
    return False


def test_a_fifo_with_no_writer_is_said_to_be_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "_COPY_STALL_S", 3600.0)
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    raised: list[BaseException] = []

    def copy() -> None:
        try:
            local.LocalTransport().get(str(fifo), tmp_path / "back" / "server.log")
        except BaseException as exc:  # noqa: BLE001 - looked at below
            raised.append(exc)

    copier = threading.Thread(target=copy, daemon=True)
    copier.start()
    waited = threading.Event()
    for _ in range(600):  # up to 60 s for the child to start on a loaded machine
        if _copy_waits_in_cat(fifo) or not copier.is_alive():
            break
        waited.wait(0.1)
    assert _copy_waits_in_cat(fifo), raised
    monkeypatch.setattr(local, "_COPY_STALL_S", STALL_S)
    copier.join(60)
    assert not copier.is_alive()
    assert len(raised) == 1 and isinstance(raised[0], TimeoutError), raised
    assert str(raised[0]) == (f"no data read from it for {STALL_S:g} s: it is a FIFO (named pipe) and no process wrote to it "
                              "(a reader waits until a writer opens it); the copy was given up")
    assert "NFS" not in str(raised[0])
    assert not (tmp_path / "back" / "server.log").exists()


def test_a_fifo_with_a_writer_is_still_copied_whole(tmp_path: Path) -> None:
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    lines = [f"decode step {i} accept_len 3.1\n" for i in range(500)]

    def write() -> None:
        with open(fifo, "w") as pipe:  # opens once the copy's cat opens the other end
            pipe.writelines(lines)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    local.LocalTransport().get(str(fifo), tmp_path / "back" / "server.log")
    writer.join(60)
    assert (tmp_path / "back" / "server.log").read_text() == "".join(lines)
