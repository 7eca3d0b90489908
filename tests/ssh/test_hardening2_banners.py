"""What answers on the SSH port decides the message: a web or mail server there is the wrong
port (said at once, not retried as a busy sshd), and a sshd over MaxStartups says so itself."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError
from tests.sshd_fixture import ClientSetup, SshServer


@contextmanager
def web_server(connections: list[int] | None = None) -> Iterator[int]:
    """A real HTTP server (the stdlib's): it reads paramiko's banner line as an HTTP/0.9 request
    and answers with a bare 400 page, `<!DOCTYPE HTML>` first. Each connection it serves is
    counted in `connections`."""

    class Quiet(http.server.BaseHTTPRequestHandler):
        def setup(self) -> None:
            if connections is not None:
                connections.append(1)
            super().setup()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def greeting_server(greeting: bytes) -> Iterator[int]:
    """A server that speaks first and hangs up, as SMTP (`220 ... ESMTP`) or FTP do."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn = listener.accept()[0]
            except OSError:
                continue
            conn.sendall(greeting)
            time.sleep(0.05)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        listener.close()


def test_a_web_server_on_the_port_is_named_as_such_at_once(client: ClientSetup, sshd: SshServer) -> None:
    """`Port 8080` in the config where a Jupyter or vLLM HTTP server listens: before, "closed the
    connection before the SSH banner" with a MaxStartups hint, after 5 retries (~3 s)."""
    connections: list[int] = []
    with web_server(connections) as port:
        client.alias("wrongport", sshd, Port=port)
        with pytest.raises(HandshakeError) as info:
            SSHTransport.connect("wrongport", client.options())
    message = info.value.message
    assert f"127.0.0.1:{port} is not an SSH server" in message and "'<!DOCTYPE HTML>'" in message, message
    assert "MaxStartups" not in (info.value.hint or "") and "Port" in (info.value.hint or "")
    # No retries: a web server stays a web server. Counted, not timed (was < 1 s, which a
    # login attempt on a loaded machine can take by itself): each connection is counted before
    # it is answered, and the client reads every answer before it gives up.
    assert len(connections) == 1, f"{len(connections)} connections"


def test_a_mail_server_greeting_is_quoted(client: ClientSetup, sshd: SshServer) -> None:
    with greeting_server(b"220 gpu01.example ESMTP Postfix (Debian/GNU)\r\n") as port:
        client.alias("smtp", sshd, Port=port)
        with pytest.raises(HandshakeError, match="is not an SSH server: it answered '220 gpu01.example ESMTP Postfix"):
            SSHTransport.connect("smtp", client.options())


class _TwoStartups(SshServer):
    def _sshd_config(self) -> str:
        config = super()._sshd_config()
        assert "MaxStartups 100\n" in config
        return config.replace("MaxStartups 100\n", "MaxStartups 2\n")


def test_sshd_over_max_startups_is_quoted_and_retried(client: ClientSetup, tmp_path: Path) -> None:
    """Two logins left half-open fill MaxStartups 2; OpenSSH then writes "Exceeded MaxStartups"
    and hangs up (openssh-portable: sshd.c, drop_connection). That line is the cause."""
    server = _TwoStartups(tmp_path / "busy", [client.key]).start()
    held: list[socket.socket] = []
    try:
        client.trust(server)
        client.alias("busy", server)
        for _ in range(2):
            sock = socket.create_connection((server.address, server.port), timeout=5)
            assert sock.recv(64).startswith(b"SSH-")  # accepted: now one of the 2 startups
            held.append(sock)
        with pytest.raises(HandshakeError) as info:
            SSHTransport.connect("busy", client.options())
        assert "turned us away before the SSH banner (sshd said 'Exceeded MaxStartups')" in info.value.message
        assert "MaxStartups" in (info.value.hint or "")
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 60
        while True:  # sshd notices the closed startups within a moment; then we get in
            try:
                with SSHTransport.connect("busy", client.options()):
                    break
            except HandshakeError:
                if time.monotonic() > deadline:
                    raise
    finally:
        for sock in held:
            sock.close()
        server.stop()

