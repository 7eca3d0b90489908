"""A user RSA key shorter than RequiredRSASize (ssh(1) 9.1+; RHEL's and Fedora's crypto policy
sets 2048 for every user, and an old 1024-bit id_rsa is still about). ssh(1) skips such a key,
from a file or from ssh-agent, without offering it (openssh-portable: sshconnect2.c,
pubkey_prepare and load_identity_file, sshkey_check_rsa_length), so `ssh` and Ansible are refused.
spec-debug offered it, logged in where they could not, and where the host refused it (its sshd
has the same policy) named it as refused, not as too short. Now it is skipped as ssh(1) skips
it, and the message says why and how to get a key that is taken."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import SSH_KEYGEN, ClientKey, ClientSetup, SshServer


@pytest.fixture
def rsa_1024(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> Path:
    key = tmp_path / "id_rsa"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", str(key)], check=True,
                   stdin=subprocess.DEVNULL)
    return key


def _ssh_logs_in(client: ClientSetup, alias: str) -> bool:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"], capture_output=True,
                          timeout=30, stdin=subprocess.DEVNULL, check=False).returncode == 0


def test_a_user_rsa_key_shorter_than_required_rsa_size_is_not_offered(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        rsa_1024: Path) -> None:
    server = sshd_factory("old-key")
    server.authorized_keys_path.write_text(ClientKey(rsa_1024).public + "\n")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(rsa_1024), RequiredRSASize=2048)
    client.alias("gpu02", server, IdentityFile=str(rsa_1024))
    assert not _ssh_logs_in(client, "gpu01") and _ssh_logs_in(client, "gpu02")
    done, record = run_tiny(cli, tmp_path, "short", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert f"{rsa_1024} (RSA 1024 bits, fewer than RequiredRSASize 2048: not offered, as ssh(1) skips it)" in error, error
    assert "ssh-keygen -t ed25519" in done.stderr, done.stderr
    done, record = run_tiny(cli, tmp_path, "default", "--host", "gpu02")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_an_agent_rsa_key_shorter_than_required_rsa_size_is_not_offered(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        rsa_1024: Path, agent_at: Callable[[Path, list[str]], Path]) -> None:
    server = sshd_factory("old-key")
    server.authorized_keys_path.write_text(ClientKey(rsa_1024).public + "\n")
    client.trust(server)
    socket_path = agent_at(tmp_path / "agent.sock", [str(rsa_1024)])
    client.alias("gpu01", server, IdentityFile="none", IdentitiesOnly="no", RequiredRSASize=2048)
    (tmp_path / "tiny.yaml").write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n"
                                        "    run: 'true'\n")
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", "gpu01", "--batch", "--out", str(tmp_path / "runs"),
               env={"SSH_AUTH_SOCK": str(socket_path)})
    assert done.code == 3, done.stdout + done.stderr
    assert "RSA 1024 bits, fewer than RequiredRSASize 2048" in done.stdout + done.stderr, done.stdout + done.stderr
