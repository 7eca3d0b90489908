"""A fetch step's deadline that fires just as its copy ends must not break the next step's copy.

The deadline's timer closes the SFTP channel from a thread of its own (ssh_sftp._close_copy_channel).
When it fired after the copy had ended, before its timer was cancelled, the copy returned
normally, the channel's CLOSE was still on its way, and the next fetch on the host took up the
half-closed channel (its `closed` not yet set) and failed with "Socket is closed": a step that had
nothing to do with the deadline reported an error.
"""

from __future__ import annotations

import stat
import threading
import time
from contextlib import nullcontext
from pathlib import Path

import paramiko
import pytest

from spec_debug.runner import fetch_deadline as fetch_deadline_module
from spec_debug.runner import ssh_sftp
from spec_debug.runner.fetch_deadline import fetch_deadline
from spec_debug.runner.ssh_sftp import RemoteFiles

LOG = b"Decode batch. #running-req: 1\n" * 100


class _Channel:
    """An SFTP channel whose CLOSE waits behind the link, as on a busy one."""

    def __init__(self) -> None:
        self.closed = False
        self.close_sent = threading.Event()

    def close(self) -> None:
        self.close_sent.set()
        time.sleep(0.5)
        self.closed = True

    def settimeout(self, _timeout: float) -> None:
        pass

    def invoke_subsystem(self, _name: str) -> None:
        pass


class _File:
    def __init__(self) -> None:
        self._left = LOG

    def _prefetch_thread(self, *args: object) -> None:
        pass

    def prefetch(self, _size: int) -> None:
        pass

    def read(self, size: int) -> bytes:
        chunk, self._left = self._left[:size], self._left[size:]
        return chunk

    def __enter__(self) -> "_File":
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class _Client:
    def __init__(self, channel: _Channel) -> None:
        self._channel = channel

    def get_channel(self) -> _Channel:
        return self._channel

    def stat(self, _path: str) -> paramiko.SFTPAttributes:
        if self._channel.close_sent.is_set():
            raise OSError("Socket is closed")
        found = paramiko.SFTPAttributes()
        found.st_mode = stat.S_IFREG | 0o644
        found.st_size = len(LOG)
        return found

    def open(self, _path: str, _mode: str) -> _File:
        if self._channel.close_sent.is_set():
            raise OSError("Socket is closed")
        return _File()

    def close(self) -> None:
        self._channel.close_sent.set()


class _Transport:
    def is_active(self) -> bool:
        return True


class _FiresAsItIsCancelled(threading.Timer):
    """The deadline passing in the moment between the copy's end and its timer's cancel."""

    def cancel(self) -> None:
        if not self.finished.is_set():
            self.function()
        super().cancel()


def test_a_deadline_that_fires_as_a_copy_ends_leaves_the_next_copy_a_working_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssh_sftp.paramiko, "SFTPClient", _Client)
    monkeypatch.setattr(fetch_deadline_module.threading, "Timer", _FiresAsItIsCancelled)
    opened: list[_Channel] = []

    def open_channel() -> _Channel:
        opened.append(_Channel())
        return opened[-1]

    files = RemoteFiles("gpu-1", _Transport(), lambda: nullcontext(), open_channel)  # type: ignore[arg-type]

    with fetch_deadline(60):
        files.get("/var/log/server.log", tmp_path / "first.log")
    assert (tmp_path / "first.log").read_bytes() == LOG  # the copy had ended: it is whole
    assert opened[0].close_sent.wait(30)  # the deadline's close is on its way (from a thread of its own)

    # The next step: a fetch without a timeout, on the same host.
    files.get("/var/log/server.log", tmp_path / "second.log")
    assert (tmp_path / "second.log").read_bytes() == LOG
    assert len(opened) == 2  # over a fresh channel
