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

# The stall limit (120 s in a run). Not 1 s: the child must have started and said the source is
# a FIFO before it, which a loaded 2-core machine may take seconds to do; no writer ever comes.
STALL_S = 20.0


def test_a_fifo_with_no_writer_is_said_to_be_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "_COPY_STALL_S", STALL_S)
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    with pytest.raises(TimeoutError) as info:
        local.LocalTransport().get(str(fifo), tmp_path / "back" / "server.log")
    assert str(info.value) == (f"no data read from it for {STALL_S:g} s: it is a FIFO (named pipe) and no process wrote to it "
                               "(a reader waits until a writer opens it); the copy was given up")
    assert "NFS" not in str(info.value)
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
