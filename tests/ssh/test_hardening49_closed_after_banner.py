"""A connection that ends after the server's banner, before the key exchange finishes (a load
balancer or port forward whose own connection to sshd drops; an sshd that gives up on the
client): the host failed as "closed the connection during the SSH handshake (EOFError)", the
name of paramiko's exception in place of a reason, with no hint. The server's banner shows an
SSH server did answer; the message says so and where to look."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.h49_helpers import listening, run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


@pytest.fixture
def dropping_forward(sshd: SshServer) -> Iterator[int]:
    """A port forward to the real sshd that passes its banner, then drops both ends once the
    client has sent its own banner and key exchange offer."""

    def forward(conn: socket.socket) -> None:
        with socket.create_connection((sshd.address, sshd.port)) as upstream:
            banner = b""
            while not banner.endswith(b"\n"):
                banner += upstream.recv(1)
            conn.sendall(banner)
            conn.recv(4096)

    with listening(forward) as port:
        yield port


def test_a_connection_dropped_after_the_banner_says_the_server_answered(
        cli: Callable[..., Any], client: ClientSetup, dropping_forward: int, tmp_path: Path) -> None:
    client.hosts["gpu01"] = {"HostName": "127.0.0.1", "Port": dropping_forward, "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    done, record = run_tiny(cli, tmp_path, "runs", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    host = record["hosts"][0]
    assert host["error"].startswith(
        f"gpu01: 127.0.0.1:{dropping_forward} closed the connection during the SSH handshake, after its banner (SSH-2.0-OpenSSH_"), host["error"]
    assert "EOFError" not in host["error"], host["error"]
    assert "sshd log" in (host["hint"] or ""), host["hint"]
