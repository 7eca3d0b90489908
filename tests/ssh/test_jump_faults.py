"""A fleet behind one bastion when the bastion itself goes down: every host ends with one clear
line naming the bastion, nothing escapes as a traceback, and the next connection opens a fresh
bastion login instead of reusing the dead one.

The races here live between paramiko's threads (the shared bastion connection's, each host's)
and show only now and then under load; each test widens its window on the real connection
(an EOF noticed late) so that it happens on every run.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterator

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


@pytest.fixture
def thread_errors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """Exceptions that escape a thread (paramiko's transport threads included): Python prints
    them to stderr as a traceback, in the middle of the run's output."""
    caught: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: caught.append(args.exc_value))
    yield caught


def notice_eof_late(sock: object, delay_s: float) -> None:
    """Make a connection notice the end of its socket `delay_s` late: paramiko's transport
    thread reads it through `recv` (paramiko/packet.py, read_all)."""
    read = sock.recv  # type: ignore[attr-defined]

    def late(size: int) -> bytes:
        data = read(size)
        if not data:
            time.sleep(delay_s)
        return data

    sock.recv = late  # type: ignore[attr-defined]


def wait_until(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def test_a_step_stopped_as_its_bastion_goes_down_ends_cleanly(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, thread_errors: list[BaseException]
) -> None:
    """Ctrl-C reaches a step just as the bastion dies: the kill and the channel close go out on
    a connection whose jump channel is gone. That must end the step, not raise paramiko's
    EOFError out of run() (seen as 'internal error: EOFError' on one host of five)."""
    jump = sshd_factory("downjump")
    client.trust(jump)
    client.alias("bastion", jump)
    client.alias("behind", sshd, ProxyJump="bastion")
    transport = SSHTransport.connect("behind", client.options())
    try:
        notice_eof_late(transport.connection.transport.sock, 2.0)
        started = threading.Event()
        ended: dict[str, object] = {}

        def step() -> None:
            try:
                ended["outcome"] = transport.run(
                    "echo started; sleep 30",
                    stdout=StreamCapture("stdout", on_line=lambda _s, _l: started.set()),
                    stderr=StreamCapture("stderr"),
                    timeout_s=30,
                )
            except BaseException as exc:  # noqa: BLE001 - what escapes is what the test checks
                ended["error"] = exc

        runner = threading.Thread(target=step)
        runner.start()
        assert started.wait(10)
        gateway = transport.connection.via[0].transport
        jump.stop()
        wait_until(lambda: not gateway.is_active())
        transport.interrupt()
        runner.join(10)
        assert not runner.is_alive()
        error = ended.get("error")
        assert error is None or isinstance(error, ConnectionLostError), repr(error)
    finally:
        transport.close()
    assert thread_errors == []


class _LateEOFSocket:
    """A connection's real socket, whose end its transport thread notices `delay_s` late."""

    def __init__(self, sock: object, delay_s: float) -> None:
        self._sock = sock
        self._delay_s = delay_s

    def recv(self, size: int) -> bytes:
        try:
            data = self._sock.recv(size)  # type: ignore[attr-defined]
        except ConnectionError:
            time.sleep(self._delay_s)
            raise
        if not data:
            time.sleep(self._delay_s)
        return data

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


def test_closing_a_host_whose_bastion_just_died_releases_the_bastion(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, thread_errors: list[BaseException]
) -> None:
    """The host's close sends CLOSE for its jump channel over a bastion connection that is dead
    but not yet noticed: that must neither raise out of close() nor keep the bastion leased."""
    jump = sshd_factory("deadjump")
    client.trust(jump)
    client.alias("bastion", jump)
    client.alias("behind", sshd, ProxyJump="bastion")
    transport = SSHTransport.connect("behind", client.options())
    gateway = transport.connection.via[0].transport
    try:
        packetizer = gateway.packetizer
        packetizer._Packetizer__socket = _LateEOFSocket(packetizer._Packetizer__socket, 3.0)  # type: ignore[attr-defined]
        time.sleep(0.2)  # the transport thread's current recv (0.1 s timeout) ends; the next one is late
        jump.stop()
        try:  # the first write to the dead peer draws its reset, so the next one fails at once
            gateway.send_ignore()
        except (EOFError, OSError):
            pass
        time.sleep(0.1)
        assert gateway.is_active()  # dead, not yet noticed: the window
        transport.close()
        assert not gateway.is_active()  # the host was its only user: the bastion login is closed
    finally:
        transport.close()
        gateway.close()
    assert thread_errors == []
