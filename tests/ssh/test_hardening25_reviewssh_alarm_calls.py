"""The shared alarm thread (ssh_transport._Alarms) holds every host's login and channel bounds:
a call that blocks when it fires (the channel open's give-up waits on the transport's lock,
which a send stalled on a frozen host holds; a banner bound's close waits up to 2 s on a
ProxyCommand) must not hold another host's bound, nor one that raises end them. And
paramiko's handshake bound, kept on that thread through paramiko's own packetizer_class hook,
falls back to paramiko's Timer on a release whose packetizer keeps its timer elsewhere."""

from __future__ import annotations

import socket
import threading
import time

import paramiko
import pytest

from spec_debug.runner.ssh_transport import _Alarms, _HandshakeBoundOnAlarms, _SignalAwareTransport

# How long a call due in a fraction of a second may take to fire: never reached unless it is
# held for good (2 s was within reach of a loaded 2-core machine's thread scheduling).
_NEVER_S = 60.0


def test_a_blocked_call_holds_no_other_hosts_bound() -> None:
    alarms = _Alarms()
    release, fired = threading.Event(), threading.Event()
    alarms.after(0.01, release.wait)  # a stalled host's give-up, blocked on its transport's lock
    alarms.after(0.05, lambda: 1 / 0)  # and one that raises
    alarms.after(0.1, fired.set)  # a healthy host's bound
    try:
        assert fired.wait(_NEVER_S), "a blocked alarm call held the next host's bound"
    finally:
        release.set()


def test_a_give_up_waiting_on_its_transports_lock_holds_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real give-up (_give_up_opening takes transport.lock) of a host whose lock a stalled
    send holds, and a second host's channel open bound due after it."""
    import spec_debug.runner.ssh_transport as ssh_transport

    alarms = _Alarms()
    monkeypatch.setattr(ssh_transport, "_ALARMS", alarms)
    ours, theirs = socket.socketpair()
    stalled = _SignalAwareTransport(ours)
    try:
        with stalled.lock:  # held, as paramiko's open_channel holds it across a blocked send
            alarms.after(0.01, lambda: stalled._give_up_opening([7], threading.Event()))
            fired = threading.Event()
            alarms.after(0.1, fired.set)
            assert fired.wait(_NEVER_S), "a give-up blocked on one transport's lock held another host's bound"
    finally:
        ours.close()
        theirs.close()


def test_the_transport_takes_the_packetizer_through_paramikos_hook() -> None:
    ours, theirs = socket.socketpair()
    try:
        assert type(_SignalAwareTransport(ours).packetizer) is _HandshakeBoundOnAlarms
    finally:
        ours.close()
        theirs.close()


def test_a_packetizer_without_paramikos_timer_keeps_paramikos_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A paramiko release that renames Packetizer.__timer: paramiko's start_handshake runs (its
    Timer, its bound) instead of the login dying on an AttributeError in the transport thread."""
    ours, theirs = socket.socketpair()
    started: list[float] = []
    monkeypatch.setattr(paramiko.Packetizer, "start_handshake", lambda self, timeout: started.append(timeout))
    try:
        packetizer = _HandshakeBoundOnAlarms(ours)
        del packetizer._Packetizer__timer  # type: ignore[attr-defined]
        packetizer.start_handshake(15.0)
        assert started == [15.0]
    finally:
        ours.close()
        theirs.close()


def test_the_handshake_bound_fires_on_the_alarm_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    import spec_debug.runner.ssh_transport as ssh_transport

    monkeypatch.setattr(ssh_transport, "_ALARMS", _Alarms())
    ours, theirs = socket.socketpair()
    try:
        packetizer = _HandshakeBoundOnAlarms(ours)
        packetizer.start_handshake(0.01)
        deadline = time.monotonic() + _NEVER_S
        while not packetizer.handshake_timed_out() and time.monotonic() < deadline:
            time.sleep(0.005)
        assert packetizer.handshake_timed_out()
        packetizer.complete_handshake()
        assert not packetizer.handshake_timed_out()
    finally:
        ours.close()
        theirs.close()


def test_a_call_still_runs_when_no_thread_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process at its thread limit (a large fleet, ulimit -u): the due call runs on the alarm
    thread itself rather than the RuntimeError ending that thread and every bound after it."""
    alarms = _Alarms()
    alarms.after(5.0, lambda: None)  # the alarm thread is started now, before the limit
    start = threading.Thread.start

    def at_the_limit(thread: threading.Thread) -> None:
        if thread.name == "spec-debug-alarm-call":
            raise RuntimeError("can't start new thread")
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", at_the_limit)
    fired = [threading.Event(), threading.Event()]
    alarms.after(0.01, fired[0].set)
    alarms.after(0.02, fired[1].set)
    assert fired[0].wait(_NEVER_S) and fired[1].wait(_NEVER_S)
