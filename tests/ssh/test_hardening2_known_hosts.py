"""known_hosts as fleets keep it: hosts trusted through a host CA (`@cert-authority`, sshd
HostCertificate), and HashKnownHosts, which hides the names of the hosts we add."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer, keygen


@pytest.fixture
def certified(client: ClientSetup, tmp_path: Path) -> Iterator[tuple[SshServer, Path]]:
    """A sshd that presents a host certificate signed by a host CA (ssh-keygen -s -h), and a
    known_hosts that trusts the CA for 127.0.0.1 and no host key at all."""
    ca = keygen(tmp_path / "host_ca", comment="corp host CA")
    server = SshServer(tmp_path / "certified", [client.key])
    server.workdir.mkdir(parents=True)
    keygen(server.host_key_path, comment="certified-host")
    subprocess.run(
        [SSH_KEYGEN, "-q", "-s", str(ca), "-I", "certified-host", "-h", "-n", "127.0.0.1", str(server.host_key_path) + ".pub"],
        check=True,
    )
    server.extra_config = f"HostCertificate {server.host_key_path}-cert.pub\n"
    server.start()
    try:
        ca_kind, ca_blob = Path(str(ca) + ".pub").read_text().split()[:2]
        client.known_hosts.write_text(f"@cert-authority 127.0.0.1,[127.0.0.1]:* {ca_kind} {ca_blob}\n")
        client.alias("certified", server)
        yield server, ca
    finally:
        server.stop()


def test_a_host_trusted_through_its_ca_is_accepted_as_ssh_accepts_it(client: ClientSetup, certified: tuple[SshServer, Path]) -> None:
    server, _ = certified
    if shutil.which("ssh"):  # OpenSSH accepts the host through its certificate
        done = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "certified", "true"], capture_output=True, text=True, timeout=30, check=False)
        assert done.returncode == 0, done.stderr
    # Now we check the certificate as ssh(1) does: trusted through the CA, nothing filed.
    with SSHTransport.connect("certified", client.options()) as transport:
        assert transport.connection.transport.host_key_type == "ssh-ed25519-cert-v01@openssh.com"
    assert server.known_hosts_line not in client.known_hosts.read_text()


def test_a_revoked_host_key_is_refused_even_beside_a_trusted_ca(client: ClientSetup, certified: tuple[SshServer, Path]) -> None:
    server, _ = certified
    kind, blob = Path(str(server.host_key_path) + ".pub").read_text().split()[:2]
    with open(client.known_hosts, "a") as handle:
        handle.write(f"@revoked * {kind} {blob}\n{server.known_hosts_line}")
    with pytest.raises(HostKeyError, match="marked @revoked"):
        SSHTransport.connect("certified", client.options(accept_new=True))


def test_accept_new_under_hash_known_hosts_files_a_hashed_entry(client: ClientSetup, sshd: SshServer) -> None:
    """`HashKnownHosts yes` (Debian and Ubuntu ship it in /etc/ssh/ssh_config): ssh(1) files new
    keys as `|1|salt|hash`; before, we wrote `[127.0.0.1]:PORT` in clear."""
    client.known_hosts.write_text("")
    client.alias("target", sshd, HashKnownHosts="yes")
    with SSHTransport.connect("target", client.options(accept_new=True)):
        pass
    text = client.known_hosts.read_text()
    assert text.startswith("|1|") and "127.0.0.1" not in text and len(text.splitlines()) == 1
    found = subprocess.run([SSH_KEYGEN, "-F", sshd.known_hosts_name, "-f", str(client.known_hosts)], capture_output=True, text=True, check=False)
    assert found.returncode == 0 and sshd.known_hosts_line.split()[2] in found.stdout  # OpenSSH finds it
    with SSHTransport.connect("target", client.options()):  # and so do we, on the non-22 port
        pass
    with SSHTransport.connect("target", client.options(accept_new=True)):  # known: not filed twice
        pass
    assert client.known_hosts.read_text() == text


def test_a_host_name_in_capitals_finds_its_hashed_entry(client: ClientSetup, sshd: SshServer) -> None:
    """Inventories write GPU-NODE-01; ssh(1) lowercases the name before it hashes it, so the
    entry it filed is the hash of `[localhost]:PORT`. Before, we hashed the capitals: "not in
    known_hosts" for a host ssh(1) knows."""
    kind, blob = Path(str(sshd.host_key_path) + ".pub").read_text().split()[:2]
    client.known_hosts.write_text(f"[localhost]:{sshd.port} {kind} {blob}\n")
    subprocess.run([SSH_KEYGEN, "-H", "-f", str(client.known_hosts)], check=True, capture_output=True)
    assert "localhost" not in client.known_hosts.read_text()
    client.alias("GPU-NODE-01", sshd, HostName="LocalHost")
    with SSHTransport.connect("GPU-NODE-01", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
