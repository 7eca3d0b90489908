"""A login's monotonic bounds (sshd's banner, the key exchange, the authentication answer) are
alarms on the one shared thread (ssh_transport._ALARMS), as a channel's open is: each was a
threading.Timer, three threads started and ended per host, 48 for a 16-host fleet's logins.
The bounds themselves are pinned by test_hardening24_ssh_wall_clock_waits."""

from __future__ import annotations

import threading

import pytest

from spec_debug.runner.output import StreamCapture
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


def test_a_steps_exec_starts_no_watcher_thread(client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound on sshd's answer to a step's exec (ssh_transport.answered_within) started a
    watcher thread per step; it is an alarm now, and ends a request sshd never answers as before
    (test_hardening22_reviewssh_slow_exec_answer, a frozen sshd)."""
    client.trust(sshd)
    client.alias("gpu", sshd)
    with SSHTransport.connect("gpu", client.options()) as transport:
        transport.run("true", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))  # the first, with its checks
        started: list[str] = []
        start = threading.Thread.start

        def counted(thread: threading.Thread) -> None:
            started.append(thread.name)
            start(thread)

        monkeypatch.setattr(threading.Thread, "start", counted)
        for _ in range(5):
            out = StreamCapture("stdout")
            assert transport.run("echo ok", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0
    # The one thread a step still starts: the channel open's wait that Ctrl-C can end
    # (ssh_abandon.open_channel_unless), which paramiko gives no other way to cut short.
    watchers = [name for name in started if name != "call-unless"]
    assert watchers == [], f"{len(watchers)} threads started by 5 steps: {watchers[:4]}"
