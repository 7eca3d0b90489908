"""A port whose server speaks only SSH protocol 1 (`SSH-1.5-...`: an old appliance, a BMC or a
switch's management port where the host was meant): the host failed as "SSH handshake with
HOST:PORT failed: Incompatible version (1.5 instead of 2.0)", with no hint. No SSH-1 server
runs here (OpenSSH dropped protocol 1 in 7.6): a listener that answers with such a banner, as
the OldSshd of h10_helpers stands in for a server that cannot be installed."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.h49_helpers import listening, run_tiny
from tests.sshd_fixture import ClientSetup, write_ssh_config


def _answer_as_protocol_1(conn: socket.socket) -> None:
    conn.sendall(b"SSH-1.5-Cisco-1.25\r\n")
    conn.recv(256)  # our banner; the server then hangs up, as a v1 server does


@pytest.fixture
def protocol_1_port() -> Iterator[int]:
    with listening(_answer_as_protocol_1) as port:
        yield port


def test_a_protocol_1_server_is_named_with_what_to_check(
        cli: Callable[..., Any], client: ClientSetup, protocol_1_port: int, tmp_path: Path) -> None:
    client.hosts["switch"] = {"HostName": "127.0.0.1", "Port": protocol_1_port, "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    done, record = run_tiny(cli, tmp_path, "runs", "--host", "switch")
    assert done.code == 3, done.stdout + done.stderr
    host = record["hosts"][0]
    assert host["error"] == (f"switch: 127.0.0.1:{protocol_1_port} speaks only SSH protocol 1 (SSH-1.5-Cisco-1.25), "
                             "which neither spec-debug nor OpenSSH 7.6+ speaks"), host["error"]
    assert "Port and HostName" in (host["hint"] or ""), host["hint"]
