"""A login the host hung up on, on a transport whose packetizer keeps no turns.

closed_mid_login reads whose turn the time went to from ssh_transport's packetizer. A
transport built another way (paramiko's own packetizer) raised AttributeError there, an
internal error in place of the login's. It now gives the LoginGraceTime message without
saying which side was slow."""

from __future__ import annotations

import socket

import paramiko

from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_login_turns import closed_mid_login


def test_a_plain_paramiko_transport_gets_the_message_without_turns() -> None:
    left, right = socket.socketpair()
    try:
        transport = paramiko.Transport(left)  # paramiko's own Packetizer: no turns
        error = closed_mid_login(transport, SSHTarget(alias="gpu01", hostname="127.0.0.1", port=22, user="me"),
                                 "127.0.0.1:22", during="before the password was sent",
                                 host_checks="the password (PAM)", our_fix="type it sooner")
    finally:
        left.close()
        right.close()
    assert str(error).startswith("gpu01: 127.0.0.1:22 closed the connection during authentication, without a "
                                 "reason (before the password was sent)")
    assert "LoginGraceTime" in error.hint and "the password (PAM)" in error.hint
