"""Logins to an sshd that turned us away for MaxStartups go one at a time.

sshd counts a connection as a "startup" from accept until its login completes, and past
MaxStartups (default 10:30:100) drops new ones before its banner, saying "Exceeded MaxStartups"
(openssh-portable: sshd.c, drop_connection; sshd_config(5), MaxStartups). An inventory that names
several hosts on one sshd (aliases of one login node, containers behind one address and port, a
fleet through one gateway) opens --forks logins at it at once. Retried blindly, the same crowd met
the same limit again, and hosts were reported unreachable while the server was fine: 2 of 16
with `MaxStartups 1:100:1`. Once an endpoint has turned us away, further logins to it wait for
one another (a login holds its turn from the TCP connect to the end of authentication).
"""

from __future__ import annotations

import errno
import threading
from contextlib import contextmanager
from typing import Iterator

from spec_debug.runner.ssh_abandon import _ABANDONED, abandonable

Endpoint = tuple[str, int]
"""(HostName, Port) of an sshd, as the ssh config resolves them."""

_LOCK = threading.Lock()
_PACED: dict[Endpoint, threading.Semaphore] = {}
_WAIT_POLL_S = 0.05


def pace(endpoint: Endpoint) -> None:
    """From now on, logins to `endpoint` take turns."""
    with _LOCK:
        _PACED.setdefault(endpoint, threading.Semaphore(1))


@contextmanager
def login_turn(endpoint: Endpoint) -> Iterator[None]:
    """Hold `endpoint`'s turn while logging in, if it is paced; a wait that Ctrl-C
    (abandon_connects) ends, as other stages of opening a connection."""
    with _LOCK:
        turn = _PACED.get(endpoint)
    if turn is None:
        yield
        return
    me = threading.get_ident()
    with abandonable(lambda: None):  # abandon_connects() marks this thread, seen below
        while not turn.acquire(timeout=_WAIT_POLL_S):
            if me in _ABANDONED:
                raise OSError(errno.ECONNABORTED, "abandoned")
    try:
        yield
    finally:
        turn.release()
