"""Giving up on connections being opened: Ctrl-C (abandon_connects) or a deadline
(abandoned_after) ends the TCP connect, name lookup, handshake or jump channel a host thread
is waiting on, instead of waiting out its ConnectTimeout."""

from __future__ import annotations

import errno
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

import paramiko

from spec_debug.runner.ssh_errors import HostUnreachableError
from spec_debug.runner.ssh_transport import close_channel


_T = TypeVar("_T")


class ConnectAbandoned(HostUnreachableError):
    """The connection was still being opened when the run was interrupted (abandon_connects)."""


# What each host thread is doing right now to open a connection (a TCP connect, a handshake),
# as the callables that stop it; and the threads told to give up. A connection being opened is
# not yet a transport the runner can interrupt: without this, Ctrl-C waits out the
# ConnectTimeout of every host that is still connecting (a stalled or firewalled host: 15 s).
_DIALING_LOCK = threading.Lock()
_DIALING: dict[int, list[Callable[[], None]]] = {}
_ABANDONED: set[int] = set()


def abandon_connects() -> None:
    """Make every connection being opened right now give up at once (ConnectAbandoned).

    For the runner's interrupt (Ctrl-C, SIGTERM), from any thread; connections opened later
    are not affected.
    """
    with _DIALING_LOCK:
        _ABANDONED.update(_DIALING)
        stops = [stop for stage in _DIALING.values() for stop in stage]
    for stop in stops:
        try:
            stop()
        except Exception:  # noqa: BLE001 - a stage already over: nothing left to stop
            pass


@contextmanager
def opening_connection() -> Iterator[None]:
    """The scope of one connection being opened by this thread: a call to abandon_connects()
    during it ends its current stage, and stops the later ones from starting."""
    try:
        yield
    finally:
        with _DIALING_LOCK:
            _ABANDONED.discard(threading.get_ident())


@contextmanager
def abandoned_after(seconds: float) -> Iterator[None]:
    """Connections this thread opens within the block give up (ConnectAbandoned) once
    `seconds` have passed, as abandon_connects() would make them, whatever their ConnectTimeout."""
    me = threading.get_ident()

    def give_up() -> None:
        with _DIALING_LOCK:
            _ABANDONED.add(me)
            stops = list(_DIALING.get(me, []))
        for stop in stops:
            try:
                stop()
            except Exception:  # noqa: BLE001 - a stage already over: nothing left to stop
                pass

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()
        with _DIALING_LOCK:  # fired after the connection was done: later ones are not abandoned
            _ABANDONED.discard(me)


@contextmanager
def abandonable(stop: Callable[[], None]) -> Iterator[None]:
    """A stage of opening a connection that abandon_connects() ends by calling `stop`."""
    me = threading.get_ident()
    with _DIALING_LOCK:
        abandoned = me in _ABANDONED
        if not abandoned:
            _DIALING.setdefault(me, []).append(stop)
    if abandoned:
        raise OSError(errno.ECONNABORTED, "abandoned")
    try:
        yield
    finally:
        with _DIALING_LOCK:
            stages = _DIALING.get(me, [])
            if stop in stages:
                stages.remove(stop)
            if not stages:
                _DIALING.pop(me, None)


def _abandonable_call(call: Callable[[], _T], discard: Callable[[_T], None] | None = None) -> _T:
    """call_unless(call) as a stage of opening a connection: abandon_connects() ends the wait
    (OSError ECONNABORTED, as an abandoned TCP connect)."""
    me = threading.get_ident()
    with abandonable(lambda: None):  # abandon_connects() then marks this thread, seen below
        result = call_unless(call, lambda: me in _ABANDONED, discard=discard)
    if result is None:
        raise OSError(errno.ECONNABORTED, "abandoned")
    return result


_GIVE_UP_POLL_S = 0.05


def call_unless(call: Callable[[], _T], give_up: Callable[[], bool], *, discard: Callable[[_T], None] | None = None) -> _T | None:
    """`call()`'s result (or its exception), or None as soon as `give_up()` is true.

    For the blocking calls of opening a connection that nothing outside can cut short: a
    name lookup, paramiko's wait for a channel (paramiko/transport.py, open_channel: only
    closing the whole connection ends it). `call` runs in a helper thread that the caller
    stops waiting for (Ctrl-C); a result that comes after that goes to `discard`.
    """
    done = threading.Event()
    outcome: list[object] = []  # [result] or [exception]
    given_up = threading.Event()

    def run() -> None:
        try:
            result: object = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome.append(exc)
            done.set()
            return
        outcome.append(result)
        done.set()
        if given_up.is_set() and discard is not None:
            discard(result)  # type: ignore[arg-type]

    threading.Thread(target=run, name="call-unless", daemon=True).start()
    while not done.wait(_GIVE_UP_POLL_S):
        if give_up():
            given_up.set()
            if outcome and discard is not None and not isinstance(outcome[0], BaseException):
                discard(outcome[0])  # type: ignore[arg-type]  # it came meanwhile
            return None
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]  # type: ignore[return-value]


def open_channel_unless(open_channel: Callable[[], paramiko.Channel], give_up: Callable[[], bool]) -> paramiko.Channel | None:
    """A channel, or None when `give_up()` came first: a hung sshd, or a jump host still
    dialing the target, holds paramiko's open for the whole channel timeout. A channel
    granted after that is closed, so the server is not left holding it."""
    return call_unless(open_channel, give_up, discard=close_channel)
