"""Logins to an sshd that turned us away for MaxStartups go one at a time.

sshd counts a connection as a "startup" from accept until its login completes, and past
MaxStartups (default 10:30:100) drops new ones before its banner, saying "Exceeded MaxStartups"
(openssh-portable: sshd.c, drop_connection; sshd_config(5), MaxStartups). An inventory that names
several hosts on one sshd (aliases of one login node, containers behind one address and port, a
fleet through one gateway) opens --forks logins at it at once. Retried blindly, the same crowd met
the same limit again, and hosts were reported unreachable while the server was fine: 2 of 16
with `MaxStartups 1:100:1`. Once an endpoint has turned us away, further logins to it wait for
one another (a login holds its turn from the TCP connect until sshd has stopped counting it).
"""

from __future__ import annotations

import errno
import threading
import time
from contextlib import contextmanager
from typing import Iterator

import paramiko

from spec_debug.runner.ssh_abandon import _ABANDONED, abandonable
from spec_debug.runner.ssh_transport import keepalive_request

Endpoint = tuple[str, int]
"""(HostName, Port) of an sshd, as the ssh config resolves them."""

_LOCK = threading.Lock()
_PACED: dict[Endpoint, threading.Semaphore] = {}
_WAIT_POLL_S = 0.05
# Endpoints whose sshd left wait_counted_out's request unanswered: later logins there do not
# wait for it again. A server must answer (RFC 4254, section 4), but one that does not (a frozen
# session process, a server that drops unknown requests) held each paced login's turn, one
# after another, for ConnectTimeout: a fleet of 16 behind one gateway lost 15 s a host.
_UNANSWERING: set[Endpoint] = set()


def pace(endpoint: Endpoint) -> None:
    """From now on, logins to `endpoint` take turns."""
    with _LOCK:
        _PACED.setdefault(endpoint, threading.Semaphore(1))


@contextmanager
def login_turn(endpoint: Endpoint) -> Iterator[bool]:
    """Hold `endpoint`'s turn while logging in, if it is paced (yields whether it is); a wait
    that Ctrl-C (abandon_connects) ends, as other stages of opening a connection."""
    with _LOCK:
        turn = _PACED.get(endpoint)
    if turn is None:
        yield False
        return
    me = threading.get_ident()
    with abandonable(lambda: None):  # abandon_connects() marks this thread, seen below
        while not turn.acquire(timeout=_WAIT_POLL_S):
            if me in _ABANDONED:
                raise OSError(errno.ECONNABORTED, "abandoned")
    try:
        yield True
    finally:
        turn.release()


def wait_counted_out(transport: paramiko.Transport, endpoint: Endpoint, within_s: float) -> None:
    """Wait (at most within_s) until sshd no longer counts this logged-in connection as a startup.

    The client hears USERAUTH_SUCCESS from sshd's pre-authentication process; sshd's listener
    stops counting the connection only later, once that process has handed over and exited and
    the monitor has closed its startup pipe (openssh-portable: sshd.c, main, at `authenticated:`;
    the listener's server_accept_loop reads the pipe's EOF). The next login of a paced endpoint,
    let in at USERAUTH_SUCCESS, met a count still full and was turned away, and on a loaded host
    a fleet's logins spent their attempts so (test_hardening18_runtime, MaxStartups 1:100:1).
    A request that wants a reply is answered by the session process sshd starts after closing
    that pipe, so its answer means the count is down. Any answer will do: sshd refuses the
    unknown `keepalive@openssh.com` (RFC 4254, section 4); no answer, and the login goes on
    (and later logins to `endpoint` do not wait).
    """
    with _LOCK:
        if endpoint in _UNANSWERING:
            return
    answered = threading.Event()
    transport.completion_event = answered  # set by paramiko on REQUEST_SUCCESS or REQUEST_FAILURE
    try:
        transport._send_user_message(keepalive_request())  # type: ignore[attr-defined]
    except (paramiko.SSHException, EOFError, OSError):
        return  # a connection lost now is reported by its first use
    # Polled: a lost connection or Ctrl-C (abandon_connects) ends the wait at once.
    me = threading.get_ident()
    deadline = time.monotonic() + within_s
    while not answered.wait(_WAIT_POLL_S):
        if not transport.is_active() or me in _ABANDONED:
            return
        if time.monotonic() >= deadline:
            with _LOCK:
                _UNANSWERING.add(endpoint)
            return
