"""A wall clock stepped forward during the handshake does not fail a healthy host.

paramiko times Transport.start_client's wait with time.time() (paramiko/transport.py,
start_client). A clock stepped forward while it waited (NTP or chrony correcting the clock of a
VM that was paused, restored from a snapshot or migrated; a laptop waking) ended the wait at
once, and spec-debug reported "no SSH handshake ... within 15 s" a fraction of a second in: the
one-off of tests/ssh/test_hardening12_askpass in CI had that message on a fresh, idle sshd. The
wait is now finished on the monotonic clock.

The host is a real sshd behind a slow link (its packets reach us 0.3 s late, so the handshake
takes over a second); the step is made in the wall clock paramiko's transport reads (the
machine's own clock cannot be stepped in a test): every reading after the first is 30 s ahead.
"""

from __future__ import annotations

import paramiko.transport
import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, Relay, SshServer, slow_link, wall_clock_stepped  # noqa: F401 - slow_link: a fixture


def test_a_wall_clock_step_during_the_handshake_is_not_a_stalled_host(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    monkeypatch.setattr(paramiko.transport, "time", wall_clock_stepped(30.0))
    with SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0)) as transport:
        out = StreamCapture("stdout")
        assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0 and out.text() == "fine\n"
