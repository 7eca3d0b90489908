"""A login that does not finish is not a wrong key: a server that dies or hangs between the
handshake and the end of authentication is said to have done so, not reported as
"authentication failed" (which sends people to check keys that are fine)."""

from __future__ import annotations

from typing import Callable

import paramiko
import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError, HostUnreachableError
from tests.ssh.faults import freeze
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def before_the_key_is_offered(monkeypatch: pytest.MonkeyPatch, fault: Callable[[], None]) -> None:
    """Run `fault` on the server once the handshake is done, just before the first key goes out."""
    offer = paramiko.Transport.auth_publickey

    def faulty(self: paramiko.Transport, *args: object, **kwargs: object) -> object:
        fault()
        return offer(self, *args, **kwargs)

    monkeypatch.setattr(paramiko.Transport, "auth_publickey", faulty)


def while_the_verdict_is_awaited(monkeypatch: pytest.MonkeyPatch, fault: Callable[[], None]) -> None:
    """Run `fault` once the key has been sent and the client waits for the server's verdict
    (paramiko/auth_handler.py, wait_for_response)."""
    wait = paramiko.auth_handler.AuthHandler.wait_for_response

    def faulty(self: object, event: object) -> object:
        fault()
        return wait(self, event)

    monkeypatch.setattr(paramiko.auth_handler.AuthHandler, "wait_for_response", faulty)


def test_a_bastion_dying_during_a_hosts_login_is_named_not_a_refused_key(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, monkeypatch: pytest.MonkeyPatch,
    frozen: list[int],
) -> None:
    """The host's key is on its way through the bastion when the bastion goes down: paramiko
    reads the EOF as "Authentication failed" (seen in a fleet run: one host of twelve reported
    a key problem when its bastion was killed)."""
    jump = sshd_factory("loginjump")
    client.trust(jump)
    client.alias("bastion", jump)
    client.alias("behind", sshd, ProxyJump="bastion")
    offers: list[object] = []
    waits: list[object] = []

    def the_host_still_judging_the_key() -> None:
        # The host's verdict must not come before the bastion is gone: on a loaded CI machine it
        # made the round trip before the fault below ran, and the login went through (the loss
        # then came at the first command, another path). Stopped here, the host never answers.
        offers.append(None)
        if len(offers) == 2:  # the first login is the bastion's own, the second the host's
            freeze(sshd, frozen)

    def bastion_dies_while_the_host_judges_the_key() -> None:
        waits.append(None)
        if len(waits) == 2:
            jump.stop()

    before_the_key_is_offered(monkeypatch, the_host_still_judging_the_key)
    while_the_verdict_is_awaited(monkeypatch, bastion_dies_while_the_host_judges_the_key)
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect("behind", client.options())
    assert info.value.message == (
        f"behind: jump host bastion dropped the connection while logging in to {sshd.address}:{sshd.port} through it"
    )
    assert frozen, "the host's connection was not found to stop before its verdict"


def test_sshd_that_hangs_during_login_times_out_saying_so(
    client: ClientSetup, sshd_factory: StartServer, monkeypatch: pytest.MonkeyPatch, frozen: list[int]
) -> None:
    """sshd stuck looking the user up (sssd/LDAP down): the key is never judged."""
    server = sshd_factory("hangslogin")
    client.trust(server)
    # ConnectTimeout bounds the key exchange before the frozen auth as well: at 1 s a loaded
    # machine's ran past it ("no SSH handshake ... within 1 s").
    client.alias("hangs", server, ConnectTimeout=3)
    before_the_key_is_offered(monkeypatch, lambda: freeze(server, frozen))
    with pytest.raises(HandshakeError) as info:
        SSHTransport.connect("hangs", client.options())
    assert info.value.message.endswith("did not answer authentication within 3 s"), info.value.message
