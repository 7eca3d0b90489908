"""A fleet behind one bastion when the bastion itself goes down: every host ends with one clear
line naming the bastion, nothing escapes as a traceback, and the next connection opens a fresh
bastion login instead of reusing the dead one.

The races here live between paramiko's threads (the shared bastion connection's, each host's)
and show only now and then under load; each test widens its window on the real connection
(an EOF noticed late) so that it happens on every run.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import ConnectionLostError
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def notice_eof_late(sock: object, delay_s: float) -> None:
    """Make a connection notice the end of its socket `delay_s` late: paramiko's transport
    thread reads it through `recv` (paramiko/packet.py, read_all)."""
    read = sock.recv  # type: ignore[attr-defined]

    def late(size: int) -> bytes:
        data = read(size)
        if not data:
            time.sleep(delay_s)
        return data

    sock.recv = late  # type: ignore[attr-defined]


def wait_until(condition: Callable[[], bool], timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def test_a_step_stopped_as_its_bastion_goes_down_ends_cleanly(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, thread_errors: list[BaseException]
) -> None:
    """Ctrl-C reaches a step just as the bastion dies: the kill and the channel close go out on
    a connection whose jump channel is gone. That must end the step, not raise paramiko's
    EOFError out of run() (seen as 'internal error: EOFError' on one host of five)."""
    jump = sshd_factory("downjump")
    client.trust(jump)
    client.alias("bastion", jump)
    client.alias("behind", sshd, ProxyJump="bastion")
    transport = SSHTransport.connect("behind", client.options())
    try:
        notice_eof_late(transport.connection.transport.sock, 2.0)
        started = threading.Event()
        ended: dict[str, object] = {}

        def step() -> None:
            try:
                ended["outcome"] = transport.run(
                    "echo started; sleep 30",
                    stdout=StreamCapture("stdout", on_line=lambda _s, _l: started.set()),
                    stderr=StreamCapture("stderr"),
                    timeout_s=30,
                )
            except BaseException as exc:  # noqa: BLE001 - what escapes is what the test checks
                ended["error"] = exc

        runner = threading.Thread(target=step)
        runner.start()
        assert started.wait(60)  # a login on a loaded machine; never reached unless broken
        gateway = transport.connection.via[0].transport
        jump.stop()
        wait_until(lambda: not gateway.is_active())
        transport.interrupt()
        runner.join(60)
        assert not runner.is_alive()
        error = ended.get("error")
        assert error is None or isinstance(error, ConnectionLostError), repr(error)
    finally:
        transport.close()
    assert thread_errors == []


class _LateEOFSocket:
    """A connection's real socket, whose end its transport thread notices only once `release`
    is set (at most a minute late), or, with `released_by_a_send`, once something was sent on
    it. Was a fixed delay (1 s, 3 s): a test thread held up that long on a loaded machine found
    the end already noticed. `entered` is set once the transport thread reads through it (its
    read then in progress on the bare socket, 0.1 s at most, is over)."""

    def __init__(self, sock: object, release: threading.Event, *, released_by_a_send: bool = False) -> None:
        self._sock = sock
        self._release = release
        self._released_by_a_send = released_by_a_send
        self.entered = threading.Event()

    def recv(self, size: int) -> bytes:
        self.entered.set()
        try:
            data = self._sock.recv(size)  # type: ignore[attr-defined]
        except ConnectionError:
            self._release.wait(60)
            raise
        if not data:
            self._release.wait(60)
        return data

    def send(self, data: bytes) -> int:
        try:
            return self._sock.send(data)  # type: ignore[attr-defined, no-any-return]
        finally:
            if self._released_by_a_send:
                self._release.set()

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


def test_closing_a_host_whose_bastion_just_died_releases_the_bastion(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, thread_errors: list[BaseException]
) -> None:
    """The host's close sends CLOSE for its jump channel over a bastion connection that is dead
    but not yet noticed: that must neither raise out of close() nor keep the bastion leased."""
    jump = sshd_factory("deadjump")
    client.trust(jump)
    client.alias("bastion", jump)
    client.alias("behind", sshd, ProxyJump="bastion")
    transport = SSHTransport.connect("behind", client.options())
    gateway = transport.connection.via[0].transport
    noticed = threading.Event()  # set once the test has its answer: the end is then noticed
    try:
        packetizer = gateway.packetizer
        late = _LateEOFSocket(packetizer._Packetizer__socket, noticed)  # type: ignore[attr-defined]
        packetizer._Packetizer__socket = late  # type: ignore[attr-defined]
        assert late.entered.wait(60)  # the transport thread's current recv (0.1 s timeout) ended; the next one is late
        jump.stop()
        try:  # the first write to the dead peer draws its reset, so the next one fails at once
            gateway.send_ignore()
        except (EOFError, OSError):
            pass
        time.sleep(0.1)
        assert gateway.is_active()  # dead, not yet noticed: the window
        transport.close()
        assert not gateway.is_active()  # the host was its only user: the bastion login is closed
    finally:
        noticed.set()
        transport.close()
        gateway.close()
    assert thread_errors == []


def test_a_bastion_that_dies_mid_run_fails_each_host_behind_it_with_one_line_naming_it(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """The bastion's sshd is killed while three hosts behind it run a step: each host ends as an
    error that names the bastion (not three hosts that look rebooted), the run record is whole,
    nothing hangs, and no traceback reaches the terminal."""
    jump = sshd_factory("bastion")
    client.trust(jump)
    client.alias("bastion", jump)
    for name in ("gpu01", "gpu02", "gpu03"):
        client.alias(name, sshd, ProxyJump="bastion")
    # Long enough that the three steps all run at once however the load staggers their starts
    # (was about 4 s), and that a run which waits them out ends past the bound below.
    marker = f"{120 + uuid.uuid4().int % 1000 / 1000:.3f}"
    playbook = tmp_path / "slow.yaml"
    playbook.write_text(
        "name: slow\ndescription: a step the bastion dies under\nsteps:\n"
        f"  - id: slow\n    title: slow\n    why: runs while the bastion dies\n    run: sleep {marker}; echo done\n"
        "  - id: after\n    title: after\n    why: never reached\n    run: echo after\n"
    )

    sleeps: list[int] = []  # the steps' sleeps, killed at the end: the bastion's end leaves them running

    def stop_the_bastion_when_all_run() -> None:
        wanted = f"sleep\0{marker}\0".encode()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            running = []
            for pid in sshd.connection_pids():
                try:
                    if Path(f"/proc/{pid}/cmdline").read_bytes() == wanted:
                        running.append(pid)
                except OSError:
                    continue
            if len(running) >= 3:
                sleeps.extend(running)
                jump.stop()
                return
            time.sleep(0.05)

    watcher = threading.Thread(target=stop_the_bastion_when_all_run, daemon=True)
    watcher.start()
    out = tmp_path / "runs"
    started = time.monotonic()
    try:
        result = cli("run", str(playbook), "--hosts", "gpu[01-03]", "--forks", "8", "-F", str(client.config), "--batch", "--out", str(out))
        watcher.join()
    finally:
        for pid in sleeps:
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == f"sleep\0{marker}\0".encode():  # not a reused pid
                    os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    assert time.monotonic() - started < 90  # the steps' 120 s sleep is not waited out (about 6 s quiet)
    assert result.code == 3, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    for host in record["hosts"]:
        assert host["status"] == "error", host
        assert host["error"].startswith(f"{host['name']}: SSH connection lost"), host["error"]
        assert host["error"].endswith("its jump host bastion dropped the connection"), host["error"]
    assert sorted(s["host"] for s in record["steps"] if s["id"] == "slow") == ["gpu01", "gpu02", "gpu03"]


def test_a_host_reaching_through_a_bastion_that_just_died_names_the_bastion(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer
) -> None:
    """The shared bastion connection still looks up when the next host asks it for a channel:
    that host's error says the bastion went down, not 'jump through bastion failed'."""
    # No keepalive probe within the test: one sent on the bastion connection (its own, or the
    # first host's over its jump channel, 15 s after the last write: CI on a loaded machine
    # got there) ends the window early, and the second host then rightly finds the bastion
    # gone and dials it afresh ("connection refused").
    quiet = {"ServerAliveInterval": 3600}
    # Anything else sent on the bastion connection before the second host's request (a
    # machine loaded by other work: seen once in many runs) ends the window the same way. That
    # attempt tests nothing, so the scenario is set up again, three times at most; whenever
    # the window held, the message must be the bastion's drop.
    refused = "second: jump host bastion: connection refused by "
    messages = []
    for attempt in range(3):
        jump = sshd_factory(f"stalejump{attempt}")
        client.trust(jump)
        client.alias("bastion", jump, **quiet)
        client.alias("first", sshd, ProxyJump="bastion", **quiet)
        client.alias("second", sshd, ProxyJump="bastion", **quiet)
        messages.append(_second_host_after_the_bastion_died(client, jump))
        if not messages[-1].startswith(refused):
            break
    assert messages[-1] == (
        f"second: jump host bastion dropped the connection while reaching {sshd.address}:{sshd.port} through it"
    ), messages


def _second_host_after_the_bastion_died(client: ClientSetup, jump: SshServer) -> str:
    """The second host's error when the bastion the first host holds dies unnoticed."""
    from spec_debug.runner.ssh_errors import HostUnreachableError

    first = SSHTransport.connect("first", client.options())
    try:
        gateway = first.connection.via[0].transport
        packetizer = gateway.packetizer
        # The end is noticed once the second host's channel request has gone out on it.
        late = _LateEOFSocket(packetizer._Packetizer__socket, threading.Event(), released_by_a_send=True)  # type: ignore[attr-defined]
        packetizer._Packetizer__socket = late  # type: ignore[attr-defined]
        assert late.entered.wait(60)
        jump.stop()
        with pytest.raises(HostUnreachableError) as info:
            SSHTransport.connect("second", client.options())
        return info.value.message
    finally:
        first.close()
