"""An old or locked-down sshd that offers only algorithms we refuse (an appliance, a CentOS 6
box kept for one job): say what it offers and what we accept, as ssh(1)'s "Unable to
negotiate ... Their offer: ..." does, instead of paramiko's bare "Incompatible ssh peer"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError
from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer


@pytest.mark.parametrize(
    ("sshd_option", "said"),
    [
        ("HostKeyAlgorithms ssh-rsa", "offers no host key type we accept (it offers: ssh-rsa; we accept: ssh-ed25519, "),
        ("KexAlgorithms diffie-hellman-group1-sha1", "offers no key exchange algorithm we accept (it offers: diffie-hellman-group1-sha1; we accept: "),
    ],
    ids=["ssh-rsa-host-key-only", "group1-kex-only"],
)
def test_an_sshd_with_only_refused_algorithms_says_which(
    client: ClientSetup, tmp_path: Path, sshd_option: str, said: str
) -> None:
    workdir = tmp_path / "old-sshd"
    workdir.mkdir()
    subprocess.run([SSH_KEYGEN, "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(workdir / "rsa_host_key")], check=True)
    server = SshServer(workdir, [client.key], extra_config=f"HostKey {workdir / 'rsa_host_key'}\n{sshd_option}\n").start()
    try:
        client.alias("old", server, StrictHostKeyChecking="accept-new")
        with pytest.raises(HandshakeError) as info:
            SSHTransport.connect("old", client.options())
    finally:
        server.stop()
    message = info.value.message
    assert message.startswith(f"old: 127.0.0.1:{server.port} {said}"), message
    assert "kex-strict" not in message and "Incompatible" not in message
    assert "OpenSSH 8.8" in (info.value.hint or "")

