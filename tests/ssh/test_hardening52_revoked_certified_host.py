"""A host that presents a host certificate, where known_hosts marks `@revoked` either the CA that
signed it or the host's own key, and also files the plain key (a fleet moving to a host CA keeps
both). ssh(1) refuses: a revoked CA or key inside the certificate makes the host REVOKED, and a
revoked host gets no fallback to its plain key (openssh-portable: hostfile.c,
check_key_not_revoked; sshconnect.c, check_host_key: the `fail:` downgrade skips HOST_REVOKED).
spec-debug fell back to the plain key filed in known_hosts and logged in."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer, keygen


@pytest.fixture
def certified(client: ClientSetup, tmp_path: Path) -> Iterator[tuple[SshServer, Path]]:
    ca = keygen(tmp_path / "host_ca", comment="corp host CA")
    server = SshServer(tmp_path / "certified", [client.key])
    server.workdir.mkdir(parents=True)
    keygen(server.host_key_path, comment="certified")
    subprocess.run([SSH_KEYGEN, "-q", "-s", str(ca), "-I", "gpu01-id", "-h", "-n", "127.0.0.1",
                    f"{server.host_key_path}.pub"], check=True, capture_output=True)
    server.extra_config = f"HostCertificate {server.host_key_path}-cert.pub\n"
    with server:
        yield server, ca


def _line(path: Path) -> str:
    return " ".join(Path(f"{path}.pub").read_text().split()[:2])


@pytest.mark.parametrize("revoked", ["ca", "host key"])
def test_a_certified_host_with_a_revoked_ca_or_key_is_refused_despite_its_plain_key(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, certified: tuple[SshServer, Path],
        revoked: str) -> None:
    server, ca = certified
    marked = ca if revoked == "ca" else server.host_key_path
    client.known_hosts.write_text(f"@cert-authority 127.0.0.1 {_line(ca)}\n@revoked * {_line(marked)}\n"
                                  + server.known_hosts_line)
    client.alias("gpu01", server, StrictHostKeyChecking="yes")
    if shutil.which("ssh") is not None:
        by_ssh = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"],
                                capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert by_ssh.returncode == 255 and "REVOKED" in by_ssh.stderr, by_ssh.stderr
    done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    assert "@revoked" in record["hosts"][0]["error"], record["hosts"][0]
