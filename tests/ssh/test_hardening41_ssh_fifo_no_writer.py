"""A fetch over SSH of a named pipe that no process writes to says so.

A FIFO is copied over `cat` (sftp-server cannot read one: test_hardening40_ssh_fifo_fetch.py),
which waits in open() until a writer opens it. The copy gave up after the stall limit and said
"the host did not move any data ... the host's disk or home directory hangs (a stuck NFS
mount?)", where the log's writer (a server not started, writing elsewhere) was the cause."""

from __future__ import annotations

import os
import re
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest
from paramiko.buffered_pipe import BufferedPipe

from spec_debug.runner.copy_script import FIFO_MARK
from spec_debug.runner.ssh_sftp import _DATA_MARK
from tests.sshd_fixture import ClientSetup

# The stall limit (120 s in a run), lowered only once the copy's script said on stderr that the
# source is a FIFO and that line reached us. A low limit set from the start raced the host's
# start of the copy on a loaded machine (it had to say so before the limit), so the test waited
# out a 20 s limit instead. The copy looks at the limit every ssh_sftp._LOOK_S s.
STALL_S = 0.5


def _fifo_mark_came(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """An event set once the copy's channel brought this side FIFO_MARK on stderr and the line
    with its pid on stdout: the copy has said the source is a FIFO (its check for that line,
    ssh_sftp._said_fifo, will find it) and, given up, it can kill the host's `cat`, which waits
    for a writer for good (a pid not come yet left it running)."""
    came = threading.Event()
    streams: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()
    feed = BufferedPipe.feed

    def watched(pipe: Any, data: Any) -> None:
        feed(pipe, data)  # in the pipe before the event is set
        streams[pipe] = streams.get(pipe, b"") + bytes(data)
        said = list(streams.values())
        if any(FIFO_MARK.encode() in s for s in said) and any(re.search(re.escape(_DATA_MARK) + rb"\d+\n", s) for s in said):
            came.set()

    monkeypatch.setattr(BufferedPipe, "feed", watched)
    return came


def fifo_fetch_given_up(transport: Any, fifo: Path, local_path: Path, monkeypatch: pytest.MonkeyPatch) -> BaseException:
    """What transport.get(fifo) raised, its stall limit lowered to STALL_S once the host's
    copy said it reads a FIFO (waited on as an event, 60 s bound): not a time."""
    from spec_debug.runner import ssh_sftp

    monkeypatch.setattr(ssh_sftp, "_STALL_S", 3600.0)
    came = _fifo_mark_came(monkeypatch)
    raised: list[BaseException] = []

    def copy() -> None:
        try:
            transport.get(str(fifo), local_path)
        except BaseException as exc:  # noqa: BLE001 - looked at by the caller
            raised.append(exc)

    copier = threading.Thread(target=copy, daemon=True)
    copier.start()
    for _ in range(600):  # up to 60 s for the host to start the copy on a loaded machine
        if came.wait(0.1) or not copier.is_alive():
            break
    try:
        assert came.is_set(), raised
        monkeypatch.setattr(ssh_sftp, "_STALL_S", STALL_S)
        copier.join(60)
        assert not copier.is_alive(), "the copy did not look at its lowered stall limit"
    finally:
        if copier.is_alive():  # a failure, not a hang: the copy holds the transport's lock
            transport.interrupt()
            copier.join(60)
    assert len(raised) == 1, raised
    return raised[0]


def test_a_fifo_with_no_writer_is_said_to_be_one_over_ssh(client: ClientSetup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport
    from spec_debug.runner.ssh_errors import RemoteFileError

    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    with SSHTransport.connect("target", client.options()) as transport:
        raised = fifo_fetch_given_up(transport, fifo, tmp_path / "back" / "server.log", monkeypatch)
        assert isinstance(raised, RemoteFileError), raised
        assert raised.message.endswith(
            f"cannot download {fifo}: no data read from it for {STALL_S:g} s: it is a FIFO (named pipe) and no process "
            "wrote to it (a reader waits until a writer opens it); the copy was given up"), raised.message
        assert "NFS" not in (raised.hint or "")
        echoed = StreamCapture("stdout")  # the connection serves the next step
        assert transport.run("echo still here", stdout=echoed, stderr=StreamCapture("stderr")).exit_code == 0
        assert echoed.text() == "still here\n"
    assert not (tmp_path / "back" / "server.log").exists()
