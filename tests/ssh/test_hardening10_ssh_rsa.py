"""Hosts that know RSA only with SHA-1 signatures (`ssh-rsa`): sshd older than 7.2 (CentOS 6,
Ubuntu 14.04 appliances, a bastion nobody upgrades), or a newer sshd restricted to it.

OpenSSH 8.8 stopped using `ssh-rsa` by default, and people who still reach such hosts put
`HostKeyAlgorithms +ssh-rsa` / `PubkeyAcceptedAlgorithms +ssh-rsa` in their ssh config
(openssh.com/txt/release-8.8). paramiko 5 has no SHA-1 RSA at all, and spec-debug ignored the
lines: the host failed with "offers no host key type we accept" where `ssh` logs in.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_connect import connect
from spec_debug.runner.ssh_errors import HandshakeError
from tests.ssh.h10_helpers import OldSshd
from tests.sshd_fixture import (
    SSH_KEYGEN,
    ClientKey,
    ClientSetup,
    SshServer,
    write_ssh_config,
)


def ssh_exit_status(client: ClientSetup, alias: str) -> int:
    """`ssh -F CONFIG ALIAS true` under BatchMode: what the user's own ssh does with the same config."""
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, timeout=30, stdin=subprocess.DEVNULL, check=False).returncode


def rsa_key(path: Path) -> Path:
    subprocess.run([SSH_KEYGEN, "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(path)], check=True)
    return path


@pytest.fixture
def rsa_only_host(client: ClientSetup, tmp_path: Path) -> Iterator[SshServer]:
    """An sshd that proves only an RSA host key, signed with SHA-1, as sshd < 7.2 does."""
    workdir = tmp_path / "old-rsa"
    workdir.mkdir()
    host_key = rsa_key(workdir / "rsa_host_key")
    server = SshServer(workdir, [client.key], extra_config=f"HostKey {host_key}\nHostKeyAlgorithms ssh-rsa\n").start()
    kind, blob = Path(f"{host_key}.pub").read_text().split()[:2]
    with open(client.known_hosts, "a") as handle:
        handle.write(f"{server.known_hosts_name} {kind} {blob}\n")
    yield server
    server.stop()


def test_host_key_algorithms_plus_ssh_rsa_reaches_an_old_sshd_as_ssh_does(client: ClientSetup, rsa_only_host: SshServer) -> None:
    client.alias("centos6", rsa_only_host, HostKeyAlgorithms="+ssh-rsa")
    assert ssh_exit_status(client, "centos6") == 0
    with SSHTransport.connect("centos6", client.options()) as transport:
        server_key = transport.connection.transport.get_remote_server_key()
        assert server_key.get_name() == "ssh-rsa" and transport.connection.transport.host_key_type == "ssh-rsa"


def test_without_the_line_the_error_names_the_line_to_add(client: ClientSetup, rsa_only_host: SshServer) -> None:
    client.alias("centos6", rsa_only_host)
    assert ssh_exit_status(client, "centos6") != 0  # ssh(1) refuses it too
    with pytest.raises(HandshakeError) as refused:
        SSHTransport.connect("centos6", client.options())
    assert "offers no host key type we accept (it offers: ssh-rsa;" in refused.value.message
    assert "`HostKeyAlgorithms +ssh-rsa`" in (refused.value.hint or ""), refused.value.hint


def test_a_known_host_keeps_its_key_checked_with_ssh_rsa(client: ClientSetup, rsa_only_host: SshServer, tmp_path: Path) -> None:
    """The SHA-1 path still verifies the host key: another RSA key under the same name is refused."""
    other = rsa_key(tmp_path / "impostor")
    kind, blob = Path(f"{other}.pub").read_text().split()[:2]
    client.known_hosts.write_text(f"{rsa_only_host.known_hosts_name} {kind} {blob}\n")
    client.alias("centos6", rsa_only_host, HostKeyAlgorithms="+ssh-rsa")
    from spec_debug.errors import HostKeyError

    with pytest.raises(HostKeyError, match="CHANGED"):
        SSHTransport.connect("centos6", client.options())


def test_pubkey_accepted_algorithms_ssh_rsa_signs_an_rsa_key_with_sha1(client: ClientSetup, tmp_path: Path) -> None:
    """An sshd that takes RSA user keys only as ssh-rsa (its PubkeyAcceptedAlgorithms, as every
    sshd before 7.2): the user's config says so for the host, ssh(1) logs in; we signed with
    rsa-sha2-512 whatever the config said, and the key was "refused"."""
    user_key = ClientKey(rsa_key(tmp_path / "id_rsa"))
    server = SshServer(tmp_path / "sha1-users", [user_key], extra_config="PubkeyAcceptedAlgorithms ssh-rsa\n").start()
    try:
        client.trust(server)
        client.alias("legacy", server, IdentityFile=str(user_key.path), PubkeyAcceptedAlgorithms="ssh-rsa")
        assert ssh_exit_status(client, "legacy") == 0
        with SSHTransport.connect("legacy", client.options()) as transport:
            assert transport.connection.transport.is_authenticated()
        # The old name of the keyword (before OpenSSH 8.5) says the same.
        client.alias("legacy-old-name", server, IdentityFile=str(user_key.path), PubkeyAcceptedKeyTypes="ssh-rsa")
        with SSHTransport.connect("legacy-old-name", client.options()) as transport:
            assert transport.connection.transport.is_authenticated()
    finally:
        server.stop()


@pytest.fixture
def ubuntu_1404(client: ClientSetup, tmp_path: Path) -> Iterator[tuple[OldSshd, Path]]:
    user_key = rsa_key(tmp_path / "id_rsa")
    server = OldSshd(tmp_path / "old-sshd", user_key)
    with open(client.known_hosts, "a") as handle:
        handle.write(server.known_hosts_line)
    yield server, user_key
    server.stop()


def test_an_sshd_older_than_7_2_gets_an_ssh_rsa_signature_when_the_config_allows_it(
    client: ClientSetup, ubuntu_1404: tuple[OldSshd, Path]
) -> None:
    """ssh(1) signs with the key's own algorithm where the server names none
    (openssh-portable: sshconnect2.c, key_sig_algorithm); paramiko signed rsa-sha2-512."""
    server, user_key = ubuntu_1404
    client.hosts["trusty"] = {"HostName": server.address, "Port": server.port, "IdentityFile": str(user_key),
                              "IdentitiesOnly": "yes", "UserKnownHostsFile": str(client.known_hosts),
                              "PubkeyAcceptedAlgorithms": "+ssh-rsa"}
    write_ssh_config(client.config, client.hosts)
    connection = connect("trusty", client.options())
    try:
        assert connection.transport.is_authenticated()
    finally:
        connection.close()


def test_an_sshd_older_than_7_2_refusing_an_rsa_key_says_which_line_to_add(
    client: ClientSetup, ubuntu_1404: tuple[OldSshd, Path]
) -> None:
    server, user_key = ubuntu_1404
    client.hosts["trusty"] = {"HostName": server.address, "Port": server.port, "IdentityFile": str(user_key),
                              "IdentitiesOnly": "yes", "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    with pytest.raises(AuthenticationError) as refused:
        connect("trusty", client.options())
    hint = refused.value.hint or ""
    assert "OpenSSH_6.6.1p1" in hint and "older than OpenSSH 7.2" in hint, hint
    assert "`PubkeyAcceptedAlgorithms +ssh-rsa`" in hint, hint
