"""A user certificate its CA signed with SHA-1 (`ssh-keygen -s RSA_CA -t ssh-rsa`, ssh-keygen's
default before OpenSSH 8.2): sshd refuses it since OpenSSH 8.2 (CASignatureAlgorithms
leaves ssh-rsa out), with the same "Permission denied" as a wrong key. The message said only
"tried: KEY with certificate KEY-cert.pub, KEY" and, for root, sent the user to PermitRootLogin;
it now says how the CA signed it (real sshd)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def _rsa_signed(tmp_path: Path, algorithm: str) -> tuple[Path, Path]:
    ca = tmp_path / "user_ca"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(ca)], check=True, capture_output=True)
    key = keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-t", algorithm, "-I", "alice@lab", "-n", "root", "-V", "-5m:+1h",
                    f"{key}.pub"], check=True, capture_output=True)
    return ca, key


def test_a_certificate_signed_with_sha1_says_so(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    ca, key = _rsa_signed(tmp_path, "ssh-rsa")
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # only certificates of the CA log in
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert (f"{key} with certificate {key}-cert.pub (its CA signed it with SHA-1 (ssh-rsa), which sshd refuses since "
            "OpenSSH 8.2 (CASignatureAlgorithms): the CA must sign with rsa-sha2-256 or rsa-sha2-512)") in error, error
    assert "get a new certificate" in done.stderr and "PermitRootLogin" not in done.stderr, done.stderr


@pytest.mark.parametrize("algorithm", ["rsa-sha2-256", "rsa-sha2-512"])
def test_a_certificate_signed_with_sha2_logs_in(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, algorithm: str) -> None:
    ca, key = _rsa_signed(tmp_path, algorithm)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
