"""A user certificate bound to the addresses it may log in from (`ssh-keygen -O
source-address=...`; Netflix BLESS and Vault roles bind certificates to the bastion's address),
used from another machine: sshd refuses it with the same "Permission denied" as a wrong key
(its log alone says "not from a permitted source address": openssh-portable,
auth2-pubkeyfile.c, auth_authorise_keyopts). The message said only "tried: KEY with certificate
KEY-cert.pub, KEY"; it now says which addresses the certificate allows (real sshd)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def _certified_key(tmp_path: Path, source: str) -> tuple[Path, Path]:
    ca, key = keygen(tmp_path / "user_ca"), keygen(tmp_path / "id_gpu")
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "alice@lab", "-n", "root", "-V", "-5m:+1h",
                    "-O", f"source-address={source}", f"{key}.pub"], check=True, capture_output=True,
                   env={**os.environ, "TZ": "UTC"})
    return ca, key


@pytest.mark.parametrize("source", ["10.9.9.0/24", "192.0.2.7/32,2001:db8::/32"])
def test_a_certificate_bound_to_other_addresses_says_which(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, source: str) -> None:
    ca, key = _certified_key(tmp_path, source)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")  # only certificates of the CA log in
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    said = f"with certificate {key}-cert.pub (it allows logins only from {source} (its source-address option), not from 127.0.0.1"
    assert said in error, error
    assert "connect from an address the certificate allows" in done.stderr, done.stderr
    assert "PermitRootLogin" not in done.stderr, done.stderr


@pytest.mark.parametrize("source", ["127.0.0.0/8", "10.9.9.0/24,127.0.0.1"])
def test_a_certificate_bound_to_this_address_logs_in(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, source: str) -> None:
    ca, key = _certified_key(tmp_path, source)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
