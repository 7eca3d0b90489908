"""Host keys filed the way ssh(1) files them, found where ssh(1) finds them.

Each case is checked against the real OpenSSH client first (`ssh -F config alias true` on the
same sshd and known_hosts), so the test says what ssh does, not what we think it does.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer

SSH = shutil.which("ssh")


def ssh_says(client: ClientSetup, alias: str) -> subprocess.CompletedProcess[str]:
    """What OpenSSH's client does with the same config (key checks strict, no prompt)."""
    if SSH is None:
        pytest.skip("OpenSSH client not installed")
    return subprocess.run(
        [SSH, "-F", str(client.config), "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", alias, "true"],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False,
    )


def host_key(server: SshServer) -> str:
    """`ssh-ed25519 AAAA...` of the server."""
    return " ".join(Path(str(server.host_key_path) + ".pub").read_text().split()[:2])


def test_a_tunnelled_host_known_by_its_host_key_alias_connects(client: ClientSetup, sshd: SshServer) -> None:
    """`HostKeyAlias gpu01` on a host reached at localhost:PORT (a tunnel, a forwarded port):
    ssh(1) files and finds its key under `gpu01`, without the port. We looked it up as
    `[gpu01]:PORT`, found nothing and refused the host as unknown."""
    client.known_hosts.write_text(f"gpu01 {host_key(sshd)}\n")
    client.alias("tunnelled", sshd, HostKeyAlias="gpu01")
    assert ssh_says(client, "tunnelled").returncode == 0
    with SSHTransport.connect("tunnelled", client.options()) as transport:
        assert transport.connection.target.known_hosts_name == "gpu01"


def test_accept_new_under_a_host_key_alias_files_the_alias_as_ssh_does(client: ClientSetup, sshd: SshServer) -> None:
    client.known_hosts.write_text("")
    client.alias("tunnelled", sshd, HostKeyAlias="gpu01", StrictHostKeyChecking="accept-new")
    with SSHTransport.connect("tunnelled", client.options()):
        pass
    assert client.known_hosts.read_text() == f"gpu01 {host_key(sshd)}\n"
    assert ssh_says(client, "tunnelled").returncode == 0  # ssh(1) finds what we filed


def test_a_host_known_without_its_port_is_trusted_with_the_same_key_only(client: ClientSetup, sshd: SshServer, sshd_factory) -> None:
    """ssh(1) checks `[host]:port` first and, when nothing is filed there, the bare host name
    (sshconnect.c, check_host_key: "checking without port identifier"): a second sshd on
    port 2222 of a machine known on 22 with the same key. We refused it as unknown."""
    client.known_hosts.write_text(f"{sshd.address} {host_key(sshd)}\n")
    assert ssh_says(client, "target").returncode == 0
    with SSHTransport.connect("target", client.options()) as transport:
        assert transport.connection.target.known_hosts_portless_name == sshd.address
    assert client.known_hosts.read_text() == f"{sshd.address} {host_key(sshd)}\n"  # nothing added

    # Another key under the bare name proves nothing: that host is unknown, for both.
    other = sshd_factory("other-key")
    client.alias("other", other)
    said = ssh_says(client, "other")
    assert said.returncode != 0 and "Host key verification failed" in said.stderr
    with pytest.raises(HostKeyError, match=r"is not in known_hosts"):
        SSHTransport.connect("other", client.options())
