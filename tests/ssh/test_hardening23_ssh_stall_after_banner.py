"""A host whose sshd sends its banner and then never finishes the key exchange is named so.

The banner is a few bytes; the key exchange's packets are the first large ones. A path that
drops large packets (an MTU black hole on a VPN or tunnel) lets the banner through and loses the
rest, and an sshd too loaded to finish the exchange stops there too. The message read "host
stalled or not an SSH server" with the hint "... or the wrong port", about a host that had just
said it is OpenSSH.

The server is a real sshd behind a relay that passes its banner line and drops what follows.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from spec_debug.runner.ssh_errors import HandshakeError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, Relay, SshServer


@pytest.fixture
def banner_only(sshd: SshServer) -> Iterator[Relay]:
    with Relay(sshd, banner_only=True) as path:
        yield path


def test_a_host_that_sends_its_banner_and_stalls_is_not_called_the_wrong_port(
    client: ClientSetup, sshd: SshServer, banner_only: Relay
) -> None:
    client.alias("vpnhost", sshd, Port=banner_only.port, HostKeyAlias=sshd.known_hosts_name)
    with pytest.raises(HandshakeError) as stalled:
        SSHTransport.connect("vpnhost", client.options(connect_timeout_s=6.0))
    said, hint = stalled.value.message, stalled.value.hint or ""
    assert "\n" not in said and "no SSH handshake" in said, said
    assert "sent its banner (SSH-2.0-OpenSSH_" in said and "did not finish the key exchange" in said, said
    assert "not an SSH server" not in said and "wrong port" not in hint, hint
    assert "MTU" in hint and "ConnectTimeout" in hint, hint
