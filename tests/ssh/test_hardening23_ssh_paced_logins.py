"""Logins that take turns at an sshd that turned us away (MaxStartups) are not turned away again.

sshd counts a connection as a startup until its monitor closes the startup pipe, which comes
after the client has heard USERAUTH_SUCCESS (openssh-portable: sshd.c, main, `authenticated:`).
A login that let the next one in at USERAUTH_SUCCESS sent it into a count still full: with
`MaxStartups 1:100:1`, 24 logins met 43-53 drops and now and then a host failed "turned us away
before the SSH banner" (test_hardening18_runtime, one_login_at_a_time_all_run). A paced login
now holds its turn until sshd answers a request, which only its session process does, after
that pipe is closed (ssh_startups.wait_counted_out).

Real sshd, real MaxStartups; the drops are counted, not timed.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import spec_debug.runner.ssh_handshake as ssh_handshake
import spec_debug.runner.ssh_startups as ssh_startups
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer


class _OneStartupAtATime(SshServer):
    def _sshd_config(self) -> str:
        return super()._sshd_config().replace("MaxStartups 100\n", "MaxStartups 1:100:1\n")


def test_logins_taking_turns_are_not_turned_away_by_the_login_before(
    client: ClientSetup, client_key: ClientKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssh_startups, "_PACED", {})
    with _OneStartupAtATime(tmp_path / "one-startup", [client_key]) as server:
        client.trust(server)
        names = [f"node{i:02d}" for i in range(12)]
        for name in names:
            client.alias(name, server)
        # One login first, retried as needed: the fixture's readiness probe may still be counted.
        SSHTransport.connect(names[0], client.options()).close()
        ssh_startups.pace((server.address, server.port))  # as after a first drop

        drops: list[str] = []
        real = ssh_handshake._handshake

        def counted(target, sock, options):  # type: ignore[no-untyped-def]
            try:
                return real(target, sock, options)
            except ssh_handshake._ClosedBeforeBanner:
                drops.append(target.alias)
                raise

        monkeypatch.setattr(ssh_handshake, "_handshake", counted)
        opened: list[SSHTransport] = []
        failed: list[str] = []

        def login(name: str) -> None:
            try:
                opened.append(SSHTransport.connect(name, client.options()))
            except Exception as exc:  # noqa: BLE001 - reported below
                failed.append(f"{name}: {exc}")

        threads = [threading.Thread(target=login, args=(name,)) for name in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        for transport in opened:
            transport.close()
    assert not failed, failed
    assert drops == [], f"{len(drops)} logins turned away while taking turns: {drops}"
