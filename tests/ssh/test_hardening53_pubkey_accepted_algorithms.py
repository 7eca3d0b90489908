"""A key whose type PubkeyAcceptedAlgorithms leaves out (`PubkeyAcceptedAlgorithms
rsa-sha2-512,rsa-sha2-256` where a site's policy wants RSA keys only, or `-ssh-ed25519`). ssh(1)
does not offer it, from a file or from ssh-agent ("Skipping ssh-ed25519 key ... - corresponding
algo not in PubkeyAcceptedAlgorithms": openssh-portable sshconnect2.c, pubkey_prepare and
key_type_allowed_by_config), so `ssh` and Ansible are refused. spec-debug offered it anyway and
logged in where they could not (paramiko applies its preferred pubkey list to RSA signatures
only: paramiko/auth_handler.py, _finalize_pubkey_algorithm). Now it is skipped as ssh(1) skips it,
and the message says why."""

from __future__ import annotations

import getpass
import shutil
import subprocess
from typing import Any, Callable
from pathlib import Path

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh_logs_in(client: ClientSetup, alias: str) -> bool:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"], capture_output=True,
                          timeout=30, stdin=subprocess.DEVNULL, check=False).returncode == 0


@pytest.mark.parametrize("algorithms", ["rsa-sha2-512,rsa-sha2-256", "-ssh-ed25519"])
def test_a_key_type_left_out_of_pubkey_accepted_algorithms_is_not_offered(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, algorithms: str) -> None:
    client.trust(sshd)
    client.alias("gpu01", sshd, PubkeyAcceptedAlgorithms=algorithms)
    client.alias("gpu02", sshd)
    assert not _ssh_logs_in(client, "gpu01") and _ssh_logs_in(client, "gpu02")
    done, record = run_tiny(cli, tmp_path, "left-out", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert (f"{client.key.path} (ssh-ed25519 key, not in PubkeyAcceptedAlgorithms: not offered, as ssh(1) skips it)"
            in error), error
    assert "PubkeyAcceptedAlgorithms" in done.stderr, done.stderr
    done, record = run_tiny(cli, tmp_path, "default", "--host", "gpu02")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_an_rsa_key_is_offered_when_only_its_sha2_signatures_are_listed(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    # ssh(1) takes an RSA key where rsa-sha2-512 or rsa-sha2-256 is listed, though its key type is
    # ssh-rsa (key_type_allowed_by_config): it must not be skipped for its name.
    key = tmp_path / "id_rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "3072", "-N", "", "-f", str(key)], check=True,
                   stdin=subprocess.DEVNULL)
    server = sshd_factory("rsa")
    server.authorized_keys_path.write_text(Path(f"{key}.pub").read_text())
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key), PubkeyAcceptedAlgorithms="rsa-sha2-512,rsa-sha2-256")
    assert _ssh_logs_in(client, "gpu01")
    done, record = run_tiny(cli, tmp_path, "rsa", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


@pytest.mark.parametrize(("key_type", "algorithms"), [
    ("ed25519", "ssh-ed25519-cert-v01@openssh.com"),
    ("rsa", "rsa-sha2-512-cert-v01@openssh.com,rsa-sha2-256-cert-v01@openssh.com"),
])
def test_a_certificate_only_pubkey_accepted_algorithms_logs_in_with_the_certificate(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
        key_type: str, algorithms: str) -> None:
    # Fleets whose logins go through a user CA (Vault, step-ca, Teleport) write the certificate
    # types alone, so no bare key is ever offered. The list left no name paramiko signs with, and
    # every host was refused "leaves no algorithm spec-debug can use" before connecting.
    ca, key = tmp_path / "ca", tmp_path / f"id_{key_type}"
    for path, kind in ((ca, "ed25519"), (key, key_type)):
        subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", "", "-f", str(path)], check=True, stdin=subprocess.DEVNULL)
    subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", "me", "-n", getpass.getuser(), f"{key}.pub"], check=True,
                   stdin=subprocess.DEVNULL)
    server = sshd_factory("ca-only", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=str(key), PubkeyAcceptedAlgorithms=algorithms)
    assert _ssh_logs_in(client, "gpu01")
    done, record = run_tiny(cli, tmp_path, "certified", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr


def test_an_encrypted_key_of_a_left_out_type_is_not_opened(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    # ssh(1) reads a key's type from its .pub (or the OpenSSH file's clear public part) and skips
    # it before opening it: no passphrase is asked for a key it will not offer. We asked (the
    # terminal or SSH_ASKPASS), then skipped the key anyway.
    encrypted, rsa = tmp_path / "id_ed25519", tmp_path / "id_rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret", "-f", str(encrypted)], check=True,
                   stdin=subprocess.DEVNULL)
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "3072", "-N", "", "-f", str(rsa)], check=True,
                   stdin=subprocess.DEVNULL)
    server = sshd_factory("rsa")
    server.authorized_keys_path.write_text(Path(f"{rsa}.pub").read_text())
    client.trust(server)
    client.alias("gpu01", server, IdentityFile=[str(encrypted), str(rsa)], PubkeyAcceptedAlgorithms="rsa-sha2-512")
    asked = tmp_path / "asked"
    askpass = tmp_path / "askpass"
    askpass.write_text(f"#!/bin/sh\necho \"$1\" >> {asked}\necho secret\n")
    askpass.chmod(0o755)
    (tmp_path / "tiny.yaml").write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n"
                                        "    run: 'true'\n")
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", "gpu01", "--out", str(tmp_path / "runs"),
               env={"SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force"})
    assert done.code == 0, done.stdout + done.stderr
    assert not asked.exists(), asked.read_text()


def test_an_encrypted_rsa_key_shorter_than_required_rsa_size_is_not_opened(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    # Likewise RequiredRSASize: ssh(1) checks the length on the public key it loads first
    # (openssh-portable: ssh.c, load_public_identity_files, sshkey_check_rsa_length).
    short = tmp_path / "id_rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "1024", "-N", "secret", "-f", str(short)], check=True,
                   stdin=subprocess.DEVNULL)
    client.alias("gpu01", sshd, IdentityFile=[str(short), str(client.key.path)], RequiredRSASize=2048)
    asked = tmp_path / "asked"
    askpass = tmp_path / "askpass"
    askpass.write_text(f"#!/bin/sh\necho \"$1\" >> {asked}\necho secret\n")
    askpass.chmod(0o755)
    (tmp_path / "tiny.yaml").write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n"
                                        "    run: 'true'\n")
    done = cli("run", str(tmp_path / "tiny.yaml"), "--host", "gpu01", "--out", str(tmp_path / "runs"),
               env={"SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force"})
    assert done.code == 0, done.stdout + done.stderr
    assert not asked.exists(), asked.read_text()
