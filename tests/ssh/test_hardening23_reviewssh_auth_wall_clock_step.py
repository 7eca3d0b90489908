"""A wall clock stepped forward during authentication does not fail a healthy host.

paramiko bounds its wait for sshd's answer to a login request with time.time() + auth_timeout
(paramiko/auth_handler.py, AuthHandler.wait_for_response), so a clock stepped forward while a
key was being answered (NTP or chrony correcting a VM's clock after a pause, a snapshot restore
or a migration; a laptop waking) read "did not answer authentication within 15 s" a fraction of
a second in. The handshake's wait had the same fault (test_hardening23_ssh_wall_clock_step);
the login's is now on the monotonic clock too.

The host is a real sshd behind a slow link (its packets reach us 0.3 s late, so paramiko's wait
reads the clock before the answer comes); the step is made in the wall clock paramiko's
auth handler reads: every reading after the first is 30 s ahead.
"""

from __future__ import annotations

import time

import paramiko.auth_handler
import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import HandshakeError
from tests.sshd_fixture import ClientSetup, Relay, SshServer, slow_link, wall_clock_stepped  # noqa: F401 - slow_link: a fixture


def test_a_wall_clock_step_during_the_login_is_not_a_silent_host(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    monkeypatch.setattr(paramiko.auth_handler, "time", wall_clock_stepped(30.0))
    try:
        connection = SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0))
    except HandshakeError as exc:
        pytest.fail(f"{exc}\n--- sshd log ---\n{sshd.log_tail()}")
    with connection as transport:
        out = StreamCapture("stdout")
        assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0 and out.text() == "fine\n"


def test_a_host_that_never_answers_the_login_still_times_out(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The monotonic wait keeps ConnectTimeout's bound: sshd's answers held back for good.
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    monkeypatch.setattr(paramiko.auth_handler.AuthHandler, "_parse_userauth_success", lambda self, m: None)
    monkeypatch.setattr(paramiko.auth_handler.AuthHandler, "_parse_userauth_failure", lambda self, m: None)
    started = time.monotonic()
    with pytest.raises(HandshakeError, match="did not answer authentication within 5 s"):
        SSHTransport.connect("faraway", client.options(connect_timeout_s=5.0))
    # Far from both paths: the bound (5 s) plus a login on a loaded machine, and never (the
    # wait counted on a clock that is not moving past it).
    assert time.monotonic() - started < 60.0
