"""A login's monotonic bounds (sshd's banner, the key exchange, the authentication answer) are
alarms on the one shared thread (ssh_transport._ALARMS), as a channel's open is: each was a
threading.Timer, three threads started and ended per host, 48 for a 16-host fleet's logins.
The bounds themselves are pinned by test_hardening24_ssh_wall_clock_waits."""

from __future__ import annotations

import threading

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_login_starts_no_timer_thread(client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    timers: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        if isinstance(thread, threading.Timer):
            timers.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    with SSHTransport.connect("gpu", client.options()) as transport:
        assert transport.connection.transport.is_authenticated()
    assert timers == [], f"{len(timers)} Timer threads started by one login"
