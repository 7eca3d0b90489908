"""`--accept-new` writing known_hosts the way fleets meet it: a file whose last line has no
newline, and many host threads accepting keys at once."""

from __future__ import annotations

import threading
from typing import Callable

import pytest

from spec_debug.runner import ssh_hostkeys
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def test_accept_new_on_a_known_hosts_without_final_newline_keeps_both_hosts(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer
) -> None:
    """known_hosts written from a CI secret with `printf '%s'` ends without a newline; the new
    entry must not be glued onto the last line (which would lose both keys)."""
    client.known_hosts.write_text(sshd.known_hosts_line.rstrip("\n"))
    fresh = sshd_factory("fresh")
    client.alias("fresh", fresh)
    with SSHTransport.connect("fresh", client.options(accept_new=True)):
        pass
    assert client.known_hosts.read_text().splitlines() == [sshd.known_hosts_line.strip(), fresh.known_hosts_line.strip()]
    for alias in ("target", "fresh"):  # both keys still verify, without --accept-new
        with SSHTransport.connect(alias, client.options()):
            pass


def test_two_aliases_of_one_machine_accepted_at_once_file_its_key_once(
    client: ClientSetup, sshd_factory: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both host threads find the key unknown before either files it (held together here at
    the point where they have read known_hosts)."""
    machine = sshd_factory("twice")
    client.known_hosts.write_text("")
    client.alias("gpu01", machine)
    client.alias("gpu01-admin", machine)
    both_read = threading.Barrier(2, timeout=10)
    read = ssh_hostkeys.KnownHosts.keys_for

    def read_together(self: ssh_hostkeys.KnownHosts, name: str) -> dict[str, list[object]]:
        found = read(self, name)
        if name == machine.known_hosts_name and not found:
            try:
                both_read.wait()
            except threading.BrokenBarrierError:
                pass
        return found  # type: ignore[return-value]

    monkeypatch.setattr(ssh_hostkeys.KnownHosts, "keys_for", read_together)
    errors: list[BaseException] = []

    def connect(alias: str) -> None:
        try:
            SSHTransport.connect(alias, client.options(accept_new=True)).close()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=connect, args=(alias,)) for alias in ("gpu01", "gpu01-admin")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert client.known_hosts.read_text().splitlines() == [machine.known_hosts_line.strip()]
