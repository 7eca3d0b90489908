"""A private key in PKCS#8 form (`-----BEGIN PRIVATE KEY-----`, or `BEGIN ENCRYPTED PRIVATE KEY`):
what Oracle Cloud's console hands out for a new instance, `openssl genpkey` writes, and
`ssh-keygen -m PKCS8` makes. ssh(1) logs in with it (OpenSSH reads any PEM key OpenSSL can:
openssh-portable, sshkey.c, sshkey_parse_private_pem_fileblob). paramiko recognises the key type
and then parses only the PKCS#1 and OpenSSH forms (paramiko/pkey.py, PKey.from_path), so the key
was "unreadable: not a valid RSA private key file" and the host refused us."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import SSH_KEYGEN, ClientKey, ClientSetup, SshServer


def _pkcs8_key(path: Path, kind: str, passphrase: str = "") -> Path:
    subprocess.run([SSH_KEYGEN, "-q", "-t", kind, "-m", "PKCS8", "-N", passphrase, "-f", str(path)], check=True,
                   stdin=subprocess.DEVNULL)
    assert "PRIVATE KEY-----" in path.read_text().splitlines()[0] and "OPENSSH" not in path.read_text()
    return path


def _ssh_logs_in(client: ClientSetup, alias: str) -> bool:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"], capture_output=True,
                          timeout=30, stdin=subprocess.DEVNULL, check=False).returncode == 0


@pytest.mark.parametrize("kind", ["rsa", "ecdsa"])
def test_a_pkcs8_key_logs_in_as_with_ssh(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        kind: str) -> None:
    key = _pkcs8_key(tmp_path / f"oci_{kind}.key", kind)
    server = sshd_factory("oci")
    server.authorized_keys_path.write_text(ClientKey(key).public + "\n")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    assert _ssh_logs_in(client, "gpu01")
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_an_encrypted_pkcs8_key_opens_with_its_passphrase(
        client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    key = _pkcs8_key(tmp_path / "locked.key", "rsa", passphrase="s3cret")
    assert "ENCRYPTED PRIVATE KEY" in key.read_text()
    server = sshd_factory("oci")
    server.authorized_keys_path.write_text(ClientKey(key).public + "\n")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key))
    asked: list[str] = []
    with SSHTransport.connect("gpu01", client.options(batch=False, prompt=lambda q: asked.append(q) or "s3cret")) as transport:
        assert transport.run("true", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"),
                             timeout_s=30).exit_code == 0
    assert len(asked) == 1, asked
