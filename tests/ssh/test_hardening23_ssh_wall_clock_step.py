"""A wall clock stepped forward during the handshake does not fail a healthy host.

paramiko times Transport.start_client's wait with time.time() (paramiko/transport.py,
start_client). A clock stepped forward while it waited (NTP or chrony correcting the clock of a
VM that was paused, restored from a snapshot or migrated; a laptop waking) ended the wait at
once, and spec-debug reported "no SSH handshake ... within 15 s" a fraction of a second in: the
one-off of tests/ssh/test_hardening12_askpass in CI had that message on a fresh, idle sshd. The
wait is now finished on the monotonic clock.

The host is a real sshd behind a slow link (its packets reach us 0.3 s late, so the handshake
takes over a second); the step is made in the wall clock paramiko's transport reads (the
machine's own clock cannot be stepped in a test): every reading after the first is 30 s ahead.
"""

from __future__ import annotations

import socket
import threading
import time
import types
from typing import Iterator

import paramiko.transport
import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer


def _clock_stepped_after_first_reading() -> types.SimpleNamespace:
    readings = [0]

    def stepped() -> float:
        readings[0] += 1
        return time.time() + (30.0 if readings[0] > 1 else 0.0)

    clock = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    return types.SimpleNamespace(**{**clock, "time": stepped})


class _SlowLink:
    """A TCP relay to sshd that delivers what sshd sends 0.3 s late (a long, slow path)."""

    def __init__(self, server: SshServer) -> None:
        self.server = server
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(4)
        self.port = int(self._listener.getsockname()[1])
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection((self.server.address, self.server.port))
            self._sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, 0.0), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, 0.3), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket, delay_s: float) -> None:
        while True:
            try:
                data = source.recv(65536)
                if not data:
                    return
                time.sleep(delay_s)
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._listener.close()
        for sock in self._sockets:
            sock.close()


@pytest.fixture
def slow_link(sshd: SshServer) -> Iterator[_SlowLink]:
    link = _SlowLink(sshd)
    yield link
    link.close()


def test_a_wall_clock_step_during_the_handshake_is_not_a_stalled_host(
    client: ClientSetup, sshd: SshServer, slow_link: _SlowLink, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    monkeypatch.setattr(paramiko.transport, "time", _clock_stepped_after_first_reading())
    with SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0)) as transport:
        out = StreamCapture("stdout")
        assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0 and out.text() == "fine\n"
