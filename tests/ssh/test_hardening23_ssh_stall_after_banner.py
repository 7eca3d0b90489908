"""A host whose sshd sends its banner and then never finishes the key exchange is named so.

The banner is a few bytes; the key exchange's packets are the first large ones. A path that
drops large packets (an MTU black hole on a VPN or tunnel) lets the banner through and loses the
rest, and an sshd too loaded to finish the exchange stops there too. The message read "host
stalled or not an SSH server" with the hint "... or the wrong port", about a host that had just
said it is OpenSSH.

The server is a real sshd behind a relay that passes its banner line and drops what follows.
"""

from __future__ import annotations

import socket
import threading
from typing import Iterator

import pytest

from spec_debug.runner.ssh_errors import HandshakeError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer


class _BannerOnlyPath:
    """A TCP relay to sshd that forwards everything from the client and only the first line
    (the banner) from sshd: the large packets after it are lost, as on an MTU black hole."""

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
            threading.Thread(target=self._pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, True), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket, banner_only: bool) -> None:
        passed = b""
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                return
            if banner_only:
                if b"\n" in passed:
                    continue  # lost on the way
                data = data[: data.index(b"\n") + 1] if b"\n" in data else data
                passed += data
            try:
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._listener.close()
        for sock in self._sockets:
            sock.close()


@pytest.fixture
def banner_only(sshd: SshServer) -> Iterator[_BannerOnlyPath]:
    path = _BannerOnlyPath(sshd)
    yield path
    path.close()


def test_a_host_that_sends_its_banner_and_stalls_is_not_called_the_wrong_port(
    client: ClientSetup, sshd: SshServer, banner_only: _BannerOnlyPath
) -> None:
    client.alias("vpnhost", sshd, Port=banner_only.port, HostKeyAlias=sshd.known_hosts_name)
    with pytest.raises(HandshakeError) as stalled:
        SSHTransport.connect("vpnhost", client.options(connect_timeout_s=6.0))
    said, hint = stalled.value.message, stalled.value.hint or ""
    assert "\n" not in said and "no SSH handshake" in said, said
    assert "sent its banner (SSH-2.0-OpenSSH_" in said and "did not finish the key exchange" in said, said
    assert "not an SSH server" not in said and "wrong port" not in hint, hint
    assert "MTU" in hint and "ConnectTimeout" in hint, hint
