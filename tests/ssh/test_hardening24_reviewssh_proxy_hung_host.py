"""A hung host behind a ProxyCommand is a stalled handshake, not a ProxyCommand that died.

When the banner (or key exchange) does not come within ConnectTimeout, paramiko closes the
transport's socket (paramiko/transport.py, run: packetizer.close() and sock.close() on the way
out), and our ProxyCommand's close() terminates the command. The handshake's check for a proxy
that ended then found it gone with -SIGTERM and blamed it: "ProxyCommand 'ssh -W %h:%p bastion'
exited with code -15", with "run the ProxyCommand by hand", for a bastion that was fine and a
target whose sshd hung. A proxy that exits on its own is still named (its code, its last words).

Real sshd as the bastion, real ssh(1) as the ProxyCommand, a target that accepts TCP and never
says a word.
"""

from __future__ import annotations

import shutil
from typing import Callable

import pytest

from spec_debug.errors import TransportError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, StallingServer, returns_within

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs OpenSSH's ssh(1) for the ProxyCommand")


def test_a_hung_host_behind_a_bastion_is_a_stalled_handshake(
    client: ClientSetup, sshd: SshServer, sshd_factory: Callable[..., SshServer]
) -> None:
    bastion = sshd_factory("bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    with StallingServer() as hung:
        client.alias("gpu", sshd, Port=hung.port, ProxyCommand=f"ssh -F {client.config} -W %h:%p bastion")
        with pytest.raises(TransportError) as stalled:
            returns_within(30.0, lambda: SSHTransport.connect("gpu", client.options(connect_timeout_s=3.0)), "a hung host")
    said = stalled.value.message
    assert "exited with code" not in said, said
    assert f"no SSH handshake from 127.0.0.1:{hung.port} within 3 s" in said, said


def test_a_proxy_command_that_exits_is_still_named(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpu", sshd, ProxyCommand="sh -c 'echo bastion: no route to gpu >&2; exit 255'")
    with pytest.raises(TransportError) as failed:
        SSHTransport.connect("gpu", client.options(connect_timeout_s=3.0))
    assert failed.value.message.endswith("exited with code 255: bastion: no route to gpu"), failed.value.message
