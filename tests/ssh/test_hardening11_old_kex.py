"""Hosts that only offer SHA-1 key exchange or a narrow cipher list: an appliance, an sshd older
than 6.5, a box locked down to one cipher.

OpenSSH offers no SHA-1 key exchange by default (ssh_config(5), KexAlgorithms), and its users
reach such hosts with `KexAlgorithms +diffie-hellman-group14-sha1` in their ssh config.
spec-debug ignored KexAlgorithms, Ciphers and MACs: that host failed with "offers no key
exchange algorithm we accept" where `ssh` logs in, and the hint did not name the line to add.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_connect import connect
from spec_debug.runner.ssh_errors import HandshakeError
from tests.sshd_fixture import ClientSetup, SshServer

SHA1_KEX = ["diffie-hellman-group14-sha1", "diffie-hellman-group1-sha1", "diffie-hellman-group-exchange-sha1"]


def _old_sshd(client: ClientSetup, tmp_path: Path, sshd_config: str) -> SshServer:
    workdir = tmp_path / "old-sshd"
    workdir.mkdir()
    return SshServer(workdir, [client.key], extra_config=sshd_config).start()


def _ssh_logs_in(client: ClientSetup, alias: str) -> bool:
    """What the user's own ssh(1) does with the same config."""
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    done = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
    return done.returncode == 0


@pytest.mark.parametrize("kex", SHA1_KEX)
def test_a_sha1_kex_host_is_reached_with_the_line_ssh_needs_too(client: ClientSetup, tmp_path: Path, kex: str) -> None:
    server = _old_sshd(client, tmp_path, f"KexAlgorithms {kex}\n")
    try:
        client.trust(server)
        client.alias("appliance", server)
        with pytest.raises(HandshakeError) as info:
            connect("appliance", client.options())
        assert f"offers no key exchange algorithm we accept (it offers: {kex};" in info.value.message
        assert f"add `KexAlgorithms +{kex}` for this host to your ssh config" in (info.value.hint or "")

        client.alias("appliance", server, KexAlgorithms=f"+{kex}")
        assert _ssh_logs_in(client, "appliance")
        connection = connect("appliance", client.options())
        try:
            assert connection.transport.is_authenticated()
            # The sshd offers that one exchange only: the session's keys were derived with it.
            channel = connection.transport.open_session()
            channel.exec_command("echo over-sha1-kex")
            assert channel.makefile("r").read().strip() == b"over-sha1-kex"
        finally:
            connection.close()
    finally:
        server.stop()


def test_a_cipher_list_in_ssh_config_is_the_one_offered(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("narrow", sshd, Ciphers="aes256-ctr", MACs="hmac-sha2-512")
    connection = connect("narrow", client.options())
    try:
        assert connection.transport.local_cipher == "aes256-ctr"
        assert connection.transport.local_mac == "hmac-sha2-512"
    finally:
        connection.close()


def test_a_cipher_list_paramiko_cannot_use_is_one_clear_error(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("exotic", sshd, Ciphers="chacha20-poly1305@openssh.com")
    with pytest.raises(UsageError) as info:
        connect("exotic", client.options())
    assert info.value.message.startswith("exotic: ssh config: Ciphers 'chacha20-poly1305@openssh.com' leaves no algorithm")


def test_a_hardened_kex_list_keeps_working(client: ClientSetup, sshd: SshServer) -> None:
    # ssh-audit's hardening guides write the RFC 8731 name, which paramiko knows as @libssh.org.
    client.alias("hardened", sshd, KexAlgorithms="sntrup761x25519-sha512@openssh.com,curve25519-sha256")
    assert _ssh_logs_in(client, "hardened")
    connect("hardened", client.options()).close()


@pytest.mark.parametrize(
    ("sshd_option", "said", "fix"),
    [
        ("Ciphers chacha20-poly1305@openssh.com", "offers no cipher we accept (it offers: chacha20-poly1305@openssh.com; we accept: ",
         "to Ciphers in sshd_config"),
        ("MACs umac-128-etm@openssh.com", "offers no MAC we accept (it offers: umac-128-etm@openssh.com; we accept: ",
         "to MACs in sshd_config"),
    ],
    ids=["chacha20-only", "umac-only"],
)
def test_an_sshd_locked_to_a_cipher_or_mac_we_lack_says_which(
    client: ClientSetup, tmp_path: Path, sshd_option: str, said: str, fix: str
) -> None:
    # paramiko says "no acceptable ciphers" / "macs" (plural): it read "SSH handshake failed" bare.
    server = _old_sshd(client, tmp_path, sshd_option + "\n")
    try:
        client.trust(server)
        client.alias("hardened-box", server)
        with pytest.raises(HandshakeError) as info:
            connect("hardened-box", client.options())
    finally:
        server.stop()
    assert info.value.message.startswith(f"hardened-box: 127.0.0.1:{server.port} {said}"), info.value.message
    assert fix in (info.value.hint or "")
