"""`BindAddress` in ssh config: connect from the address the host lets in.

A multi-homed login node reaches the GPU hosts from its cluster-network address, and those
hosts' sshd admit only that network (`AllowUsers *@10.1.0.0/16`, a `Match Address` block, a
firewall). ssh(1) binds its socket to BindAddress before it connects (openssh-portable:
sshconnect.c, ssh_create_socket). spec-debug ignored the keyword and connected from the
default address: sshd refused the right key as "authentication failed".
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

USER = pwd.getpwuid(os.getuid()).pw_name


@pytest.fixture
def cluster_only(client: ClientSetup, client_key: ClientKey, tmp_path: Path) -> Iterator[SshServer]:
    """An sshd on 127.0.0.1 that admits the user from 127.0.0.2 only (the cluster network)."""
    server = SshServer(tmp_path / "sshd-cluster", [client_key], extra_config=f"AllowUsers {USER}@127.0.0.2\n").start()
    client.trust(server)
    yield server
    server.stop()


def test_bind_address_connects_from_the_address_the_host_admits(client: ClientSetup, cluster_only: SshServer) -> None:
    client.alias("gpu01", cluster_only, BindAddress="127.0.0.2")
    with SSHTransport.connect("gpu01", client.options()) as transport:
        sock = transport.connection.transport.sock
        assert sock.getsockname()[0] == "127.0.0.2"  # type: ignore[union-attr]


def test_without_it_the_host_refuses_as_ssh_would(client: ClientSetup, cluster_only: SshServer) -> None:
    client.alias("gpu01", cluster_only)
    with pytest.raises(AuthenticationError):
        SSHTransport.connect("gpu01", client.options())


def test_an_address_this_machine_does_not_have_is_named(client: ClientSetup, sshd: SshServer) -> None:
    """ssh(1): "bind 192.0.2.7: Cannot assign requested address" (a BindAddress left from another machine)."""
    client.alias("gpu01", sshd, BindAddress="192.0.2.7")
    with pytest.raises(HostUnreachableError) as refused:
        SSHTransport.connect("gpu01", client.options())
    assert refused.value.message == "gpu01: cannot connect from BindAddress 192.0.2.7: Cannot assign requested address"
    assert "an address of this machine" in (refused.value.hint or "")
