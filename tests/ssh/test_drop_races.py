"""A connection that drops while a step runs is reported as lost, whichever of paramiko's
threads sees the drop first."""

from __future__ import annotations

import time
from typing import Callable

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError
from tests.ssh.faults import StopOncePrinted
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def test_a_drop_seen_first_as_a_closed_channel_is_a_lost_connection(client: ClientSetup, sshd_factory: StartServer) -> None:
    """paramiko closes the channels of a dropped connection before it marks the connection
    down; a step that wakes in between must not report 'the server closed the command's
    channel without an exit status' (the window is widened here: each channel's unlink is
    followed by a pause)."""
    server = sshd_factory("dropsorder")
    client.trust(server)
    client.alias("drops", server)
    with SSHTransport.connect("drops", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        connection = transport.connection.transport
        unlink = connection._unlink_channel

        def unlink_then_pause(chanid: int) -> None:
            unlink(chanid)
            time.sleep(0.2)

        connection._unlink_channel = unlink_then_pause  # type: ignore[method-assign]
        stopper = StopOncePrinted(server)
        try:
            with pytest.raises(ConnectionLostError, match="connection lost during command"):
                transport.run("echo started; sleep 20", stdout=stopper.stdout, stderr=StreamCapture("e"), timeout_s=30)
        finally:
            stopper.join()
