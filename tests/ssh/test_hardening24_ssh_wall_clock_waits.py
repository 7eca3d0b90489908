"""A wall clock stepped while paramiko waits for a session channel, for sshd's banner or for
the key exchange, or between ServerAlive probes, does not fail a healthy host, nor hold a run
on a hung one past ConnectTimeout (or ServerAliveInterval x ServerAliveCountMax).

paramiko bounds these waits with time.time(): a channel's open (paramiko/transport.py,
open_channel: start_ts), the banner's read (paramiko/transport.py, _check_banner through
paramiko/packet.py, _read_timeout) and the key exchange (paramiko/transport.py, start_client:
max_time). A clock stepped forward (NTP or chrony correcting a VM's clock after a pause, a
snapshot restore or a migration; a laptop waking) read as a host that "did not open a session
within 15 s" a moment in, and as an sshd that closed before its banner, so the login was retried
(a second connection) and the host paced as if it met MaxStartups. A clock stepped back kept a
run on a hung sshd, or on a key exchange lost in an MTU black hole, for the size of the step;
and paramiko's ServerAlive schedule (paramiko/packet.py, _check_keepalive) sent no probe that
long, so a host that froze mid-step went unnoticed.
The login's wait had the same fault (test_hardening23_reviewssh_auth_wall_clock_step).

The hosts are real sshds: behind a relay that delivers their packets 0.3 s late (so paramiko
reads the clock before each answer) or passes only their banner, or with the connection's sshd
process stopped (SIGSTOP). The step is made in the wall clock the paramiko module under test
reads, after the wait under test first read it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable

import paramiko.buffered_pipe
import paramiko.channel
import paramiko.packet
import paramiko.transport
import pytest

from spec_debug.errors import TransportError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError, HandshakeError
from tests.ssh.faults import freeze
from tests.sshd_fixture import (  # noqa: F401 - slow_link: a fixture
    ClientSetup,
    Relay,
    SshServer,
    StallingServer,
    returns_within,
    slow_link,
    wall_clock_stepped,
)


# The bound on a wait that ends within about ConnectTimeout (3 s here), or never with the fault
# (it is counted on a clock stepped back an hour). 20 s was not 10 times the good path (a 3 s
# bound, and a login, on a 2-core machine that two test workers load).
_NEVER_S = 60.0


def _echo(transport: SSHTransport) -> str:
    out = StreamCapture("stdout")
    assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr"), timeout_s=30).exit_code == 0
    return out.text()


def test_a_wall_clock_step_while_a_channel_opens_is_not_a_hung_sshd(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    with SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0)) as transport:
        monkeypatch.setattr(paramiko.transport, "time", wall_clock_stepped(30.0, first_read_in="open_channel"))
        try:
            said = _echo(transport)
        except TransportError as exc:
            pytest.fail(f"a healthy host failed after a clock step: {exc}")
        assert said == "fine\n"


def test_a_hung_sshd_still_gives_up_on_a_channel_after_a_clock_stepped_back(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], monkeypatch: pytest.MonkeyPatch, frozen: list[int]
) -> None:
    server = sshd_factory("hung-channel")
    client.trust(server)
    client.alias("gpu", server)
    with SSHTransport.connect("gpu", client.options(connect_timeout_s=3.0)) as transport:
        freeze(server, frozen)  # the host's sshd hangs: no channel is answered
        monkeypatch.setattr(paramiko.transport, "time", wall_clock_stepped(-3600.0, first_read_in="open_channel"))
        with pytest.raises(TransportError) as hung:
            returns_within(_NEVER_S, lambda: _echo(transport), "a channel from a hung sshd after the clock went back an hour")
        assert "did not open a session within 3 s" in hung.value.message, hung.value.message


def test_a_wall_clock_step_before_a_slow_banner_is_not_an_sshd_turning_us_away(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    # The step comes while the banner is on its way: after the read's first look at the clock.
    monkeypatch.setattr(paramiko.packet, "time", wall_clock_stepped(30.0, first_read_in="_read_timeout"))
    try:
        connection = SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0))
    except HandshakeError as exc:
        pytest.fail(f"a healthy host failed after a clock step: {exc}")
    with connection as transport:
        assert _echo(transport) == "fine\n"
    assert slow_link.accepted == 1, f"{slow_link.accepted} connections: the login was retried as if sshd had turned it away"


def test_a_host_that_never_sends_its_banner_still_times_out(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The monotonic bound keeps ConnectTimeout's: the clock stepped back an hour while waiting.
    with StallingServer() as hung:
        client.alias("hung", sshd, Port=hung.port)
        monkeypatch.setattr(paramiko.packet, "time", wall_clock_stepped(-3600.0, first_read_in="_read_timeout"))
        with pytest.raises(HandshakeError) as stalled:
            returns_within(_NEVER_S, lambda: SSHTransport.connect("hung", client.options(connect_timeout_s=3.0)), "a banner")
        assert "no SSH handshake" in stalled.value.message and "within 3 s" in stalled.value.message, stalled.value.message


def test_a_key_exchange_that_stalls_still_times_out_after_a_clock_stepped_back(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # paramiko's start_client waits for the exchange until time.time() passes its bound: an
    # hour back, a host behind an MTU black hole (banner through, the rest lost) held us an hour.
    with Relay(sshd, banner_only=True) as black_hole:
        client.alias("vpnhost", sshd, Port=black_hole.port, HostKeyAlias=sshd.known_hosts_name)
        monkeypatch.setattr(paramiko.transport, "time", wall_clock_stepped(-3600.0, first_read_in="start_client"))
        with pytest.raises(HandshakeError) as stalled:
            returns_within(_NEVER_S, lambda: SSHTransport.connect("vpnhost", client.options(connect_timeout_s=3.0)), "a key exchange")
        said = stalled.value.message
        assert "within 3 s" in said and "sent its banner" in said and "did not finish the key exchange" in said, said


def test_a_frozen_host_is_still_noticed_after_a_clock_stepped_back(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], monkeypatch: pytest.MonkeyPatch, frozen: list[int]
) -> None:
    # paramiko sends a ServerAlive probe once time.time() is interval_s past the last write
    # (paramiko/packet.py, _check_keepalive): an hour back, none went out for an hour.
    server = sshd_factory("frozen-clock")
    client.trust(server)
    client.alias("frozen", server, ServerAliveInterval=1, ServerAliveCountMax=2)
    with SSHTransport.connect("frozen", client.options()) as transport:
        started = threading.Event()

        def step_back_and_freeze() -> None:
            started.wait(_NEVER_S)
            # From now on: the step is quiet, so the last write was read on the clock before.
            monkeypatch.setattr(paramiko.packet, "time", wall_clock_stepped(-3600.0, after_readings=0))
            freeze(server, frozen)

        threading.Thread(target=step_back_and_freeze, daemon=True).start()
        out = StreamCapture("stdout", on_line=lambda _s, _l: started.set())
        with pytest.raises(ConnectionLostError) as lost:
            returns_within(_NEVER_S, lambda: transport.run("echo started; sleep 60", stdout=out, stderr=StreamCapture("stderr")),
                           "a frozen host to be noticed after the clock went back an hour")
        assert "the server stopped answering (2 keepalives unanswered)" in lost.value.message, lost.value.message


def test_a_wall_clock_step_while_a_copy_waits_for_sftp_is_not_a_stall(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A copy's reads wait under a timeout (its stall bound) that paramiko counts with
    # time.time() (paramiko/buffered_pipe.py, read): 5 minutes ahead, it ran out at once.
    report = tmp_path / "report.txt"
    report.write_text("acceptance rate 0.71\n")
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    with SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0)) as transport:
        monkeypatch.setattr(paramiko.buffered_pipe, "time", wall_clock_stepped(300.0, first_read_in="read"))
        fetched = tmp_path / "fetched.txt"
        transport.get(str(report), fetched)
        assert fetched.read_text() == "acceptance rate 0.71\n"


def test_a_wall_clock_step_while_an_upload_waits_for_the_window_is_not_a_stall(
    client: ClientSetup, sshd: SshServer, slow_link: Relay, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # An upload past sshd's 2 MiB window waits for its WINDOW_ADJUST (0.3 s late here) under
    # the copy's stall bound, counted with time.time() (paramiko/channel.py, _wait_for_send_window).
    source = tmp_path / "drafter.safetensors"
    source.write_bytes(os.urandom(6 << 20))
    client.alias("faraway", sshd, Port=slow_link.port, HostKeyAlias=sshd.known_hosts_name)
    with SSHTransport.connect("faraway", client.options(connect_timeout_s=15.0)) as transport:
        monkeypatch.setattr(paramiko.channel, "time", wall_clock_stepped(300.0, first_read_in="_wait_for_send_window"))
        transport.put(source, str(tmp_path / "uploaded.safetensors"))
    assert (tmp_path / "uploaded.safetensors").read_bytes() == source.read_bytes()
