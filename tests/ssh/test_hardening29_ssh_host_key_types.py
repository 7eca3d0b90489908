"""`HostKeyAlgorithms rsa-sha2-512` in the user's ssh config before a host whose only host key
is ed25519: ssh(1) says "no matching host key type found. Their offer: ssh-ed25519". spec-debug
said so too, but its fix blamed the host ("offers only SHA-1 era algorithms ... update
openssh-server there"); it names the config line now."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_host_key_type_list_that_leaves_the_host_out_names_the_config_line(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("rsaonly", sshd, HostKeyAlgorithms="rsa-sha2-512")
    with pytest.raises(HandshakeError) as failed:
        SSHTransport.connect("rsaonly", client.options())
    assert "offers no host key type we accept (it offers: ssh-ed25519" in failed.value.message, failed.value
    hint = failed.value.hint or ""
    assert "`HostKeyAlgorithms rsa-sha2-512`" in hint and "+ssh-ed25519" in hint and "SHA-1" not in hint, hint


def test_a_host_with_a_key_type_paramiko_lacks_is_not_blamed_on_the_list(client: ClientSetup, sshd_factory: Any,
                                                                          tmp_path: Path) -> None:
    """An sshd with an ssh-dss host key alone, and `HostKeyAlgorithms +ssh-rsa` (which leaves
    nothing out): the hint said to add `+ssh-dss` to that line, which paramiko cannot verify."""
    key = tmp_path / "dsa_host"
    if subprocess.run(["ssh-keygen", "-q", "-t", "dsa", "-N", "", "-f", str(key)], capture_output=True).returncode != 0:
        pytest.skip("this ssh-keygen makes no DSA keys")
    server = sshd_factory("dssonly", extra_config=f"HostKey {key}\nHostKeyAlgorithms ssh-dss\n")
    client.alias("dssonly", server, HostKeyAlgorithms="+ssh-rsa")
    with pytest.raises(HandshakeError) as failed:
        SSHTransport.connect("dssonly", client.options())
    assert "(it offers: ssh-dss;" in failed.value.message, failed.value
    assert "+ssh-dss" not in (failed.value.hint or "") and "update openssh-server" in (failed.value.hint or ""), failed.value
