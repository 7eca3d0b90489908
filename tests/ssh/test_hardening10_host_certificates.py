"""Fleets that trust their hosts through a host CA: every sshd has a HostCertificate signed
with `ssh-keygen -s CA -h`, and known_hosts holds one `@cert-authority *.corp ...` line
instead of a key per host (Vault SSH, smallstep, Teleport and in-house CAs work this way).

ssh(1) logs in; spec-debug refused every such host ("cannot check SSH host certificates")
and the only way on was --accept-new, i.e. trusting each host's key on first use, which the
CA was there to avoid. The certificate is now checked as ssh(1) checks it: signer, type,
validity, principals (openssh-portable: sshconnect.c, check_host_cert).
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_hostkeys import parse_certificate
from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer, keygen

StartCertified = Callable[..., SshServer]


def public_line(path: Path) -> str:
    kind, blob = Path(f"{path}.pub").read_text().split()[:2]
    return f"{kind} {blob}"


def ssh_exit_status(client: ClientSetup, alias: str) -> int:
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    return subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, timeout=30, stdin=subprocess.DEVNULL, check=False).returncode


@pytest.fixture
def host_ca(tmp_path: Path) -> Path:
    return keygen(tmp_path / "host_ca", comment="corp host CA")


@pytest.fixture
def certified(client: ClientSetup, tmp_path: Path, host_ca: Path) -> Iterator[StartCertified]:
    """Start an sshd whose host key `ca` signed for `principals`, valid for `validity`."""
    started: list[SshServer] = []

    def start(name: str, *, ca: Path = host_ca, principals: str = "127.0.0.1", validity: str = "-5m:+1h") -> SshServer:
        server = SshServer(tmp_path / name, [client.key])
        server.workdir.mkdir(parents=True)
        keygen(server.host_key_path, comment=name)
        subprocess.run([SSH_KEYGEN, "-q", "-s", str(ca), "-I", f"{name}-id", "-h", "-n", principals, "-V", validity,
                        f"{server.host_key_path}.pub"], check=True, capture_output=True)
        server.extra_config = f"HostCertificate {server.host_key_path}-cert.pub\n"
        started.append(server.start())
        client.alias(name, server)
        return server

    client.known_hosts.write_text(f"@cert-authority 127.0.0.1,[127.0.0.1]:* {public_line(host_ca)}\n")
    yield start
    for server in started:
        server.stop()


def test_a_host_signed_by_the_trusted_ca_is_accepted_without_a_key_line(client: ClientSetup, certified: StartCertified) -> None:
    certified("gpu01")
    before = client.known_hosts.read_text()
    assert ssh_exit_status(client, "gpu01") == 0
    with SSHTransport.connect("gpu01", client.options()) as transport:
        assert transport.connection.transport.host_key_type == "ssh-ed25519-cert-v01@openssh.com"
    with SSHTransport.connect("gpu01", client.options(accept_new=True)):
        pass
    assert client.known_hosts.read_text() == before  # nothing filed: the CA vouches for the host


@pytest.mark.parametrize(
    ("signed", "refused"),
    [
        ({"principals": "gpu02.corp"}, "it is for gpu02.corp, not for 127.0.0.1"),
        ({"validity": "20200101:20200102"}, "it expired at 2020-01-02"),
        ({"validity": "+1d:+2d"}, "it is not valid before "),
        ({"ca": "other"}, "no @cert-authority line in known_hosts trusts its signer for this host"),
    ],
    ids=["other-host", "expired", "not-yet-valid", "untrusted-ca"],
)
def test_a_certificate_ssh_would_refuse_is_refused_with_the_reason(
    client: ClientSetup, certified: StartCertified, tmp_path: Path, signed: dict[str, object], refused: str
) -> None:
    if signed.get("ca") == "other":
        signed = {"ca": keygen(tmp_path / "rogue_ca")}
    server = certified("gpu01", **signed)
    assert ssh_exit_status(client, "gpu01") != 0
    with pytest.raises(HostKeyError) as info:
        SSHTransport.connect("gpu01", client.options(accept_new=True))
    message = info.value.message
    assert message.startswith(f"gpu01: the host certificate of [127.0.0.1]:{server.port} (ED25519 key SHA256:"), message
    assert "id 'gpu01-id') is not accepted: " + refused in message, message


def test_a_revoked_ca_is_not_trusted(client: ClientSetup, certified: StartCertified, host_ca: Path) -> None:
    certified("gpu01")
    with open(client.known_hosts, "a") as handle:
        handle.write(f"@revoked * {public_line(host_ca)}\n")
    assert ssh_exit_status(client, "gpu01") != 0
    with pytest.raises(HostKeyError, match="the CA .* that signed the host certificate of .* is marked @revoked"):
        SSHTransport.connect("gpu01", client.options())


def test_an_expired_certificate_of_a_host_known_by_its_own_key_still_connects(client: ClientSetup, certified: StartCertified) -> None:
    """ssh(1) then checks the plain key inside the certificate against known_hosts."""
    server = certified("gpu01", validity="20200101:20200102")
    with open(client.known_hosts, "a") as handle:
        handle.write(server.known_hosts_line)
    assert ssh_exit_status(client, "gpu01") == 0
    with SSHTransport.connect("gpu01", client.options()):
        pass


def test_a_certificate_whose_signer_was_swapped_does_not_verify(tmp_path: Path, host_ca: Path) -> None:
    """A certificate signed by a rogue CA that claims the trusted CA as signer: the signature
    check, not the signer field, decides."""
    rogue = keygen(tmp_path / "rogue")
    host = keygen(tmp_path / "host")
    subprocess.run([SSH_KEYGEN, "-q", "-s", str(rogue), "-I", "forged", "-h", "-n", "127.0.0.1", f"{host}.pub"],
                   check=True, capture_output=True)
    blob = base64.b64decode(Path(f"{host}-cert.pub").read_text().split()[1])
    rogue_key = base64.b64decode(public_line(rogue).split()[1])
    trusted_key = base64.b64decode(public_line(host_ca).split()[1])
    assert blob.count(rogue_key) == 1 and len(rogue_key) == len(trusted_key)
    forged = parse_certificate(blob.replace(rogue_key, trusted_key))
    import paramiko

    ca = paramiko.PKey.from_type_string("ssh-ed25519", trusted_key)
    assert forged.signature_key == ca.asbytes()
    assert not ca.verify_ssh_sig(forged.signed, paramiko.Message(forged.signature))
    with pytest.raises(ValueError):
        parse_certificate(blob[:-10])  # cut short


def test_host_key_algorithms_that_list_certificate_types_get_the_certificate(
    client: ClientSetup, certified: StartCertified
) -> None:
    """`HostKeyAlgorithms ssh-ed25519-cert-v01@openssh.com,ssh-ed25519`, as CA fleets write it:
    the certificate types were dropped from the list, the host showed its plain key, unknown."""
    server = certified("gpu01")
    client.alias("gpu01", server, HostKeyAlgorithms="ssh-ed25519-cert-v01@openssh.com,ssh-ed25519")
    assert ssh_exit_status(client, "gpu01") == 0
    with SSHTransport.connect("gpu01", client.options()) as transport:
        assert transport.connection.transport.host_key_type == "ssh-ed25519-cert-v01@openssh.com"


def test_a_host_without_a_certificate_under_a_ca_line_says_so(client: ClientSetup, sshd: SshServer, host_ca: Path) -> None:
    """The CA line matches, the host has no HostCertificate yet: neither "not in known_hosts" alone
    nor (as before) "spec-debug cannot check SSH host certificates"."""
    client.known_hosts.write_text(f"@cert-authority 127.0.0.1,[127.0.0.1]:* {public_line(host_ca)}\n")
    with pytest.raises(HostKeyError) as info:
        SSHTransport.connect("target", client.options())
    assert "through an @cert-authority line, but the host presented no host certificate" in info.value.message
    assert "HostCertificate" in (info.value.hint or "")
