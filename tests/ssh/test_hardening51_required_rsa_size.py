"""A host whose only host key is RSA shorter than RequiredRSASize (ssh(1) 9.1+): RHEL's and
Fedora's crypto policy sets `RequiredRSASize 2048` for every user, and `ssh` refuses a BMC or
an old appliance with a smaller key ("Bad server host key: Invalid key length";
openssh-portable: sshconnect2.c, verify_host_key_callback). spec-debug logged in to it. The
same host passes under ssh(1)'s default (1024 bits)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer


@pytest.fixture
def rsa_2048_host(client: ClientSetup, tmp_path: Path) -> Iterator[SshServer]:
    server = SshServer(tmp_path / "appliance", [client.key])
    server.workdir.mkdir(parents=True)
    # The fixture's host key path, holding an RSA key: sshd reads the key's type from the file.
    subprocess.run([SSH_KEYGEN, "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(server.host_key_path)],
                   check=True, stdin=subprocess.DEVNULL)
    with server:
        client.trust(server)
        yield server


def _ssh_status(client: ClientSetup) -> int:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"],
                          capture_output=True, timeout=30, stdin=subprocess.DEVNULL, check=False).returncode


def test_an_rsa_host_key_shorter_than_required_rsa_size_is_refused(
        cli: Callable[..., Any], client: ClientSetup, rsa_2048_host: SshServer, tmp_path: Path) -> None:
    client.alias("gpu01", rsa_2048_host, RequiredRSASize=3072)
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01", "-F", str(client.config))
    assert done.code == 3, done.stdout + done.stderr
    assert "has 2048 bits, fewer than RequiredRSASize 3072" in record["hosts"][0]["error"], record["hosts"][0]
    assert _ssh_status(client) == 255


def test_the_same_host_passes_under_the_default(
        cli: Callable[..., Any], client: ClientSetup, rsa_2048_host: SshServer, tmp_path: Path) -> None:
    client.alias("gpu01", rsa_2048_host)
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01", "-F", str(client.config))
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
    assert _ssh_status(client) == 0
