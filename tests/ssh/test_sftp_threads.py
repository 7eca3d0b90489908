"""SFTP copies against the threads paramiko runs beside them: a download's prefetch thread
when the connection drops, and Ctrl-C arriving in the middle of a long copy."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Callable

import paramiko
import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def slow_read_requests(monkeypatch: pytest.MonkeyPatch, delay_s: float) -> None:
    """Make each SFTP read request leave `delay_s` late: paramiko's prefetch thread, which
    sends them all (paramiko/sftp_file.py, _prefetch_thread), is then still at work when the
    fault comes, as it is for a multi-GB file on a real link."""
    request = paramiko.SFTPClient._async_request

    def late(self: paramiko.SFTPClient, fileobj: object, t: int, *args: object) -> object:
        if fileobj is not None:
            time.sleep(delay_s)
        return request(self, fileobj, t, *args)

    monkeypatch.setattr(paramiko.SFTPClient, "_async_request", late)


def prefetch_threads_ended() -> bool:
    """Whether paramiko's prefetch threads have all ended (a thread's target is dropped when it
    ends), waiting up to a minute: a fixed 0.3 s let a slow one meet the dead connection after
    the test's check, and raise into a later test's thread_errors instead."""
    deadline = time.monotonic() + 60
    while any(getattr(getattr(thread, "_target", None), "__name__", "") == "_prefetch_thread" for thread in threading.enumerate()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def make_file(transport: SSHTransport, path: str, megabytes: int) -> None:
    outcome = transport.run(f"head -c {megabytes}M /dev/zero > {path}", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
    assert outcome.exit_code == 0


def test_a_download_whose_connection_drops_prints_no_traceback_from_the_prefetch_thread(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thread_errors: list[BaseException]
) -> None:
    server = sshd_factory("dropsprefetch")
    client.trust(server)
    client.alias("drops", server)
    remote = f"/tmp/spec-debug-prefetch-{uuid.uuid4().hex[:8]}.bin"
    with SSHTransport.connect("drops", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        make_file(transport, remote, 8)
        slow_read_requests(monkeypatch, 0.005)
        # The server goes down once the copy is under way: at its 20th read request of 256; later
        # ones (of any thread) wait for that. Was a timer of 0.4 s, which a loaded machine held
        # past the copy's 1.3 s: the copy then ended whole, before the fault.
        request = paramiko.SFTPClient._async_request
        counting, stopped = threading.Lock(), threading.Event()
        sent: list[None] = []

        def stop_under_way(self: paramiko.SFTPClient, fileobj: object, t: int, *args: object) -> object:
            if fileobj is not None:
                with counting:
                    sent.append(None)
                    number = len(sent)
                if number == 20:
                    server.stop()
                    stopped.set()
                elif number > 20:
                    stopped.wait(60)
            return request(self, fileobj, t, *args)

        monkeypatch.setattr(paramiko.SFTPClient, "_async_request", stop_under_way)
        with pytest.raises(ConnectionLostError):
            transport.get(remote, tmp_path / "copy.bin")
        assert len(sent) >= 20  # the copy was under way
    assert prefetch_threads_ended()  # the prefetch thread meets the dead connection at its next request
    assert thread_errors == []
    assert not (tmp_path / "copy.bin").exists()
    Path(remote).unlink(missing_ok=True)


def test_ctrl_c_stops_a_long_download_at_once_and_leaves_no_partial_artifact(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thread_errors: list[BaseException]
) -> None:
    """A fetch of a big file (an nsys report, a core dump) takes minutes; Ctrl-C must not wait
    for it to finish."""
    remote = f"/tmp/spec-debug-long-{uuid.uuid4().hex[:8]}.bin"
    try:
        with SSHTransport.connect("target", client.options()) as transport:
            assert isinstance(transport, SSHTransport)
            make_file(transport, remote, 32)
            slow_read_requests(monkeypatch, 0.05)  # about 50 s for the whole file
            threading.Timer(0.5, transport.interrupt).start()
            started = time.monotonic()
            with pytest.raises(OSError) as info:
                transport.get(remote, tmp_path / "copy.bin")
            # Far from both: the 0.5 s timer and the stop, and the whole copy (was < 3 s of 10 s)
            assert time.monotonic() - started < 20
            assert "interrupted" in str(info.value)
            assert not list(tmp_path.glob("copy.bin*"))
            with pytest.raises(OSError, match="interrupted"):  # and no new copy starts
                transport.exists(remote)
    finally:
        Path(remote).unlink(missing_ok=True)
    assert prefetch_threads_ended()
    assert thread_errors == []


def test_interrupt_does_not_wait_on_a_connection_that_cannot_send(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C stops every host from one thread, in turn: closing one host's copy must not wait
    for its connection to take a packet (a host that stopped reading, its TCP window full)."""
    with SSHTransport.connect("target", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        transport.exists("/")  # an SFTP session is open, as during a copy
        connection = transport.connection.transport
        send_now = connection._send_user_message
        released = threading.Event()

        def stuck(message: object) -> None:
            released.wait(60)  # until the test has its answer: a send that waits is the fault
            send_now(message)

        monkeypatch.setattr(connection, "_send_user_message", stuck)
        started = time.monotonic()
        try:
            transport.interrupt()
            # Far from both: no wait (was < 0.5 s, of a 3 s stuck send), and the 60 s send.
            assert time.monotonic() - started < 20
        finally:
            released.set()
        monkeypatch.undo()
