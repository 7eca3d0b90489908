"""The monotonic bound on a channel's open (ssh_transport, open_channel) costs no thread per open.

It was a threading.Timer per CHANNEL_OPEN: a thread started and ended for every step's channel,
measured on a loopback sshd as 1.5 ms of CPU per open_session + exec + close becoming 1.8 ms.
One alarm thread now serves every bound; the bound itself still ends a wait that sshd never
answers (test_hardening24_ssh_wall_clock_waits: a hung sshd after a clock step).
"""

from __future__ import annotations

import threading
import time

import pytest

from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer


def test_opening_channels_starts_no_thread_per_channel(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    with SSHTransport.connect("gpu", client.options()) as transport:
        connection = transport.connection.transport
        connection.open_session(timeout=15).close()  # the alarm thread, started once
        started: list[str] = []
        start = threading.Thread.start

        def counted(thread: threading.Thread) -> None:
            started.append(thread.name)
            start(thread)

        monkeypatch.setattr(threading.Thread, "start", counted)
        for _ in range(10):
            channel = connection.open_session(timeout=15)
            channel.exec_command("true")
            assert channel.recv_exit_status() == 0
            channel.close()
    # A bound armed by an earlier test in this process (the alarm thread is the process's)
    # may come due meanwhile and run on a thread of its own: a busy machine showed one. Such
    # calls are not the channels' and are left out; any other thread is one per channel.
    per_channel = [name for name in started if name != "spec-debug-alarm-call"]
    assert len(per_channel) == 0, f"{len(per_channel)} threads started for 10 channels: {per_channel[:3]}"
    assert started.count("spec-debug-alarm-call") < 10, started


def test_an_alarm_fires_at_its_deadline_and_a_cancelled_one_never() -> None:
    from spec_debug.runner.ssh_transport import _Alarms

    alarms = _Alarms()
    fired: list[str] = []
    # Armed and cancelled with the alarms' lock held (a reentrant condition): the alarm thread
    # cannot take `cancelled` in between, however long this thread is held up on a loaded
    # machine (0.2 s then let it fire before its cancel). `late` is far past the test's end.
    with alarms._cv:
        late = alarms.after(300.0, lambda: fired.append("late"))
        cancelled = alarms.after(0.2, lambda: fired.append("cancelled"))
        alarms.after(0.4, lambda: fired.append("soon"))  # earlier than `late`, armed after it
        alarms.cancel(cancelled)
    deadline = time.monotonic() + 60.0
    while not fired and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    assert fired == ["soon"], fired
    alarms.cancel(late)
