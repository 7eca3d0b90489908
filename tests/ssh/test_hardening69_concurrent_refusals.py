"""Two session channels refused at the same time are each told the server refused them.

paramiko keeps one saved exception per connection for a refused channel open
(paramiko/transport.py: _parse_channel_open_failure sets `saved_exception`, open_channel reads
it back with get_exception, which clears it). Two opens refused together (a host at its
MaxSessions, two steps' channels, a step beside a copy) raced for it: one took the other's
refusal, the other found none and raised "Unable to open channel.", and the step failed with
"SSH connection lost while opening a channel ... the host rebooted". Seen as
tests/ssh/test_transport.py::test_concurrent_channels_respect_max_sessions failing on a loaded
machine (a thread died with ConnectionLostError; reproduced with the test pinned to one CPU).

The sshd is real (MaxSessions 1, its slot held by a channel the test opened); the test only
holds each refused opener at paramiko's get_exception until both refusals have arrived, the
order a loaded machine gives, then frees the slot. Both steps now wait for it and run.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

import paramiko
import pytest

from spec_debug.errors import TransportError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_transport import _SignalAwareTransport
from spec_debug.runner.transport import CommandOutcome

from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def _hold_the_only_slot(connection: paramiko.Transport) -> paramiko.Channel:
    """A session channel, once sshd has freed the slot of the connect's login check."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return connection.open_session(timeout=10)
        except paramiko.ChannelException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_two_refused_session_opens_each_wait_for_a_slot(
    client: ClientSetup, sshd_factory: Callable[..., SshServer]
) -> None:
    server = sshd_factory("h69refusals", extra_config="MaxSessions 1\n")
    client.alias("busy69", server)
    client.trust(server)
    with SSHTransport.connect("busy69", client.options(max_sessions=3)) as transport:
        connection = transport.connection.transport
        holder = _hold_the_only_slot(connection)
        both_refused = threading.Barrier(2)
        calls: list[str] = []
        real = connection.get_exception

        def after_both_refusals() -> Exception | None:
            first_round = len(calls) < 2
            calls.append(threading.current_thread().name)
            if first_round:
                try:
                    both_refused.wait(timeout=10)
                except threading.BrokenBarrierError:
                    pass
                holder.close()  # the slot is free again once sshd reads our CLOSE
            return real()

        connection.get_exception = after_both_refusals  # type: ignore[method-assign]
        outcomes: dict[int, CommandOutcome] = {}
        errors: list[BaseException] = []

        def step(code: int) -> None:
            stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
            try:
                outcomes[code] = transport.run(f"echo ran {code}; exit {code}", stdout=stdout, stderr=stderr, timeout_s=30)
            except BaseException as exc:  # noqa: BLE001 - what the step raised is the assertion
                errors.append(exc)

        threads = [threading.Thread(target=step, args=(code,), name=f"step{code}") for code in (3, 4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        # Both opens were refused first (the slot was held), so both read a refusal.
        assert len(calls) >= 2, calls
        assert errors == [], [str(e) for e in errors]
        assert {code: outcome.exit_code for code, outcome in outcomes.items()} == {3: 3, 4: 4}
        assert connection.is_active()  # nothing was lost


def test_two_hosts_refused_behind_one_jump_host_each_get_their_own_reason(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], monkeypatch: pytest.MonkeyPatch,
    closed_port: Callable[[], int],
) -> None:
    """A fleet behind one bastion shares its connection (ssh_jump._JumpPool): two hosts down at
    once had their direct-tcpip refusals arrive together. One host was told the other's reason,
    the other "jump through bastion failed: Unable to open channel."."""
    bastion = sshd_factory("h69bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    down = closed_port()
    behind = {"IdentityFile": str(client.key.path), "UserKnownHostsFile": str(client.known_hosts), "ProxyJump": "bastion"}
    client.hosts["gpu-down"] = {"HostName": "127.0.0.1", "Port": down, **behind}
    client.hosts["gpu-gone"] = {"HostName": "gpu69.invalid", "Port": 22, **behind}
    write_ssh_config(client.config, client.hosts)
    both_refused = threading.Barrier(2)
    held: list[int] = []
    real = _SignalAwareTransport.get_exception

    def after_both_refusals(self: _SignalAwareTransport) -> Exception | None:
        if getattr(self._opening, "chanid", None) and len(held) < 2:  # a channel open's refusal
            held.append(self._opening.chanid[0])
            try:
                both_refused.wait(timeout=10)
            except threading.BrokenBarrierError:
                pass
        return real(self)

    monkeypatch.setattr(_SignalAwareTransport, "get_exception", after_both_refusals)
    errors: dict[str, str] = {}

    def reach(alias: str) -> None:
        try:
            SSHTransport.connect(alias, client.options()).close()
            errors[alias] = "connected"
        except TransportError as exc:
            errors[alias] = exc.message

    threads = [threading.Thread(target=reach, args=(alias,), name=alias) for alias in ("gpu-down", "gpu-gone")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(held) == 2, held  # both opens were held until both refusals had come
    assert errors["gpu-down"] == (
        f"gpu-down: jump host bastion could not open a connection to 127.0.0.1:{down} (Connect failed: Connection refused)"
    ), errors
    assert errors["gpu-gone"].startswith("gpu-gone: jump host bastion could not open a connection to gpu69.invalid:22 ("), errors
    assert "Connection refused" not in errors["gpu-gone"], errors
