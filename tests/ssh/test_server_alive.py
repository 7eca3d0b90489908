"""A server that stops answering while its kernel still acknowledges our packets: sshd frozen
(the host swapping itself to death, sshd stuck in D state on a dead NFS mount, a SIGSTOP).
TCP sees nothing wrong, so only SSH-level probes that expect a reply notice it, as ssh(1)'s
ServerAliveInterval/ServerAliveCountMax do (openssh-portable: clientloop.c,
server_alive_check). Without them a step with no timeout waits forever."""

from __future__ import annotations

import threading
import time
from typing import Callable


from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError
from tests.ssh.faults import freeze
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def run_until_frozen(transport: SSHTransport, server: SshServer, pids: list[int]) -> BaseException | None:
    """Run a quiet step with no timeout; freeze the server's sshd once the step has started."""
    started = threading.Event()
    out = StreamCapture("stdout", on_line=lambda _s, _l: started.set())
    ended: list[BaseException | None] = []

    def step() -> None:
        try:
            transport.run("echo started; sleep 60", stdout=out, stderr=StreamCapture("stderr"))
            ended.append(None)
        except BaseException as exc:  # noqa: BLE001 - what ends the step is what the test checks
            ended.append(exc)

    runner = threading.Thread(target=step, daemon=True)
    runner.start()
    assert started.wait(60)  # a login and a step on a loaded machine; never reached unless broken
    freeze(server, pids)
    runner.join(60)  # about 3 s (ServerAliveInterval 1 x (ServerAliveCountMax 2 + 1)); never with the fault
    assert ended, "the step still waits on a server that stopped answering"
    return ended[0]


def test_a_frozen_sshd_ends_a_step_without_timeout_as_a_lost_connection(
    client: ClientSetup, sshd_factory: StartServer, frozen: list[int]
) -> None:
    server = sshd_factory("frozen")
    client.trust(server)
    client.alias("frozen", server, ServerAliveInterval=1, ServerAliveCountMax=2)
    with SSHTransport.connect("frozen", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        # A quiet step on a live server spans several probes: each is answered, none counts.
        quiet = transport.run("sleep 3.5", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
        assert quiet.exit_code == 0
        started = time.monotonic()
        error = run_until_frozen(transport, server, frozen)
        assert isinstance(error, ConnectionLostError), repr(error)
        assert error.message == "frozen: SSH connection lost during command: the server stopped answering (2 keepalives unanswered)"
        # Far from both: about 3 s, and 45 s or never (probes at paramiko's or no interval).
        assert time.monotonic() - started < 30


def test_a_frozen_host_behind_a_live_bastion_is_noticed_too(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, frozen: list[int]
) -> None:
    """Behind a jump host our TCP connection is to the bastion, which stays healthy: no TCP
    timeout of ours can see the host behind it go quiet."""
    server = sshd_factory("frozenbehind")
    client.trust(server)
    client.alias("bastion", sshd)
    client.alias("behind", server, ProxyJump="bastion", ServerAliveInterval=1, ServerAliveCountMax=2)
    with SSHTransport.connect("behind", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        error = run_until_frozen(transport, server, frozen)
        assert isinstance(error, ConnectionLostError), repr(error)
        assert "the server stopped answering" in error.message
        assert transport.connection.via[0].transport.is_active()  # the bastion itself is fine
