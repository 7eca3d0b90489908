"""`HostKeyAlgorithms rsa-sha2-512` in the user's ssh config before a host whose only host key
is ed25519: ssh(1) says "no matching host key type found. Their offer: ssh-ed25519". spec-debug
said so too, but its fix blamed the host ("offers only SHA-1 era algorithms ... update
openssh-server there"); it names the config line now."""

from __future__ import annotations

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
