"""A host behind a jump host that the jump host cannot reach: sshd there says why (`ssh -J`
prints "channel 0: open failed: connect failed: Connection refused"), and we said "jump host
bastion could not open a connection to HOST:PORT (Connect failed)" whatever the cause, as
paramiko keeps only the code of the refusal. Nothing listening, a name the jump host cannot
resolve and no route each send the user somewhere else."""

from __future__ import annotations

from typing import Callable

import pytest

from spec_debug.errors import TransportError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config

StartServer = Callable[..., SshServer]


def _refusal(client: ClientSetup, bastion: SshServer, hostname: str, port: int) -> TransportError:
    client.trust(bastion)
    client.alias("bastion", bastion)
    client.hosts["behind"] = {"HostName": hostname, "Port": port, "ProxyJump": "bastion",
                              "IdentityFile": str(client.key.path), "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    with pytest.raises(TransportError) as caught:
        SSHTransport.connect("behind", client.options())
    return caught.value


def test_nothing_listening_behind_the_jump_host_is_said(client: ClientSetup, sshd_factory: StartServer,
                                                       closed_port: Callable[[], int]) -> None:
    down = closed_port()
    error = _refusal(client, sshd_factory("bastion"), "127.0.0.1", down)
    assert error.message == (f"behind: jump host bastion could not open a connection to 127.0.0.1:{down} "
                             "(Connect failed: Connection refused)"), error.message
    assert "behind's HostName and Port as bastion sees them" in (error.hint or ""), error.hint


def test_a_name_the_jump_host_cannot_resolve_is_said(client: ClientSetup, sshd_factory: StartServer) -> None:
    error = _refusal(client, sshd_factory("bastion"), "gpu01.invalid", 22)
    assert error.message.startswith("behind: jump host bastion could not open a connection to gpu01.invalid:22 (Connect failed: "), error.message
    assert not error.message.endswith("(Connect failed)"), error.message
