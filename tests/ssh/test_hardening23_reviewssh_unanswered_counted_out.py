"""A paced sshd that leaves the counted-out request unanswered costs one wait, not one per login.

A login that takes its turn at an sshd that turned us away (MaxStartups) holds the turn until
sshd answers a `keepalive@openssh.com` request (ssh_startups.wait_counted_out), at most
ConnectTimeout. A server must answer it (RFC 4254, section 4), but one that does not (a frozen
session process, a server that drops unknown global requests) held every paced login's turn for
ConnectTimeout, one login after another: 4 hosts on it took 4 x ConnectTimeout. The endpoint that
left it unanswered is now remembered and later logins to it go on at once.

A real sshd; its answers to global requests are dropped on arrival (as if never sent).
"""

from __future__ import annotations

import time

import pytest

import spec_debug.runner.ssh_startups as ssh_startups
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_transport import _SignalAwareTransport
from tests.sshd_fixture import ClientSetup, SshServer

_CONNECT_TIMEOUT_S = 4.0


def test_later_logins_do_not_wait_again_for_a_server_that_did_not_answer(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssh_startups, "_PACED", {})
    monkeypatch.setattr(ssh_startups, "_UNANSWERING", set(), raising=False)
    monkeypatch.setattr(_SignalAwareTransport, "_parse_request_success", lambda self, m: None)
    monkeypatch.setattr(_SignalAwareTransport, "_parse_request_failure", lambda self, m: None)
    sent: list[int] = []
    real_request = ssh_startups.keepalive_request

    def counted_request() -> object:
        sent.append(1)
        return real_request()

    monkeypatch.setattr(ssh_startups, "keepalive_request", counted_request)
    ssh_startups.pace((sshd.address, sshd.port))  # as after a first MaxStartups drop
    names = [f"node{i}" for i in range(4)]
    for name in names:
        client.alias(name, sshd)
    waits = []
    for name in names:
        started = time.monotonic()
        SSHTransport.connect(name, client.options(connect_timeout_s=_CONNECT_TIMEOUT_S)).close()
        waits.append(time.monotonic() - started)
    # The first login waits out the bound; the three after it do not wait again: they send no
    # request to wait on. Counted, not timed: three logins on a loaded 2-core machine may take
    # the 8 s (2 x ConnectTimeout) the sum was held to.
    assert waits[0] >= _CONNECT_TIMEOUT_S - 0.5, waits
    assert len(sent) == 1, f"{len(sent)} logins waited for an answer: {[round(w, 1) for w in waits]}"
