"""Hosts whose sshd offers only modern key exchanges: a hardening guide's
`KexAlgorithms curve25519-sha256`, or the post-quantum `sntrup761x25519-sha512@openssh.com` alone.

paramiko knows curve25519-sha256 (RFC 8731) by its older name only, curve25519-sha256@libssh.org:
such a host shared no exchange with us, where ssh(1) logs in. And every host sharing no key
exchange was told it "offers only SHA-1 era algorithms" and to update openssh-server, the
opposite of the truth for a host newer than our paramiko.
"""

from __future__ import annotations

from pathlib import Path

import paramiko
import pytest

from spec_debug.runner.ssh_connect import connect
from spec_debug.runner.ssh_errors import HandshakeError
from tests.ssh.test_hardening11_old_kex import _ssh_logs_in
from tests.sshd_fixture import ClientSetup, SshServer


def _hardened_sshd(client: ClientSetup, tmp_path: Path, kex: str) -> SshServer:
    return SshServer(tmp_path / "hardened-sshd", [client.key], extra_config=f"KexAlgorithms {kex}\n").start()


def test_a_host_offering_only_rfc8731_curve25519_is_reached(client: ClientSetup, tmp_path: Path) -> None:
    server = _hardened_sshd(client, tmp_path, "curve25519-sha256")
    try:
        client.trust(server)
        client.alias("hardened", server)
        assert _ssh_logs_in(client, "hardened")
        connection = connect("hardened", client.options())
        try:
            channel = connection.transport.open_session()
            channel.exec_command("echo over-curve25519")
            assert channel.makefile("r").read().strip() == b"over-curve25519"
        finally:
            connection.close()
    finally:
        server.stop()


def test_a_config_that_removes_curve25519_sha256_removes_both_names(client: ClientSetup, tmp_path: Path) -> None:
    server = _hardened_sshd(client, tmp_path, "curve25519-sha256")
    try:
        client.trust(server)
        client.alias("hardened", server, KexAlgorithms="-curve25519-sha256")
        with pytest.raises(HandshakeError) as info:
            connect("hardened", client.options())
        assert "curve25519-sha256" not in info.value.message.split("we accept: ", 1)[1], info.value.message
    finally:
        server.stop()


def test_a_host_offering_only_post_quantum_kex_is_not_called_sha1_era(client: ClientSetup, tmp_path: Path) -> None:
    kex = "sntrup761x25519-sha512@openssh.com"
    server = _hardened_sshd(client, tmp_path, kex)
    try:
        client.trust(server)
        client.alias("pq-only", server)
        with pytest.raises(HandshakeError) as info:
            connect("pq-only", client.options())
    finally:
        server.stop()
    said, hint = info.value.message, info.value.hint or ""
    assert f"offers no key exchange algorithm we accept (it offers: {kex}; we accept: " in said, said
    assert "offers only SHA-1 era" not in hint and "update openssh-server" not in hint, hint
    assert hint.startswith(f"the host's sshd offers only key exchanges this spec-debug's paramiko {paramiko.__version__} lacks"), hint
    assert "add curve25519-sha256 (OpenSSH 7.4+) to KexAlgorithms in sshd_config" in hint, hint


def test_a_sha1_only_host_still_gets_the_sha1_hint(client: ClientSetup, tmp_path: Path) -> None:
    server = _hardened_sshd(client, tmp_path, "diffie-hellman-group14-sha1")
    try:
        client.trust(server)
        client.alias("appliance", server)
        with pytest.raises(HandshakeError) as info:
            connect("appliance", client.options())
    finally:
        server.stop()
    assert "SHA-1 era algorithms" in (info.value.hint or ""), info.value.hint
