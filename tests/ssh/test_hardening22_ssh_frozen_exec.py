"""An sshd that opens a channel and then freezes does not hold the run for good.

paramiko waits for the answer to an exec request without limit (paramiko/channel.py,
_wait_for_event), and sshd answers only once it has forked the command (openssh-portable
session.c, do_exec_no_pty): a host whose sshd froze between the two (a fork stalled in memory
reclaim, a thrashing host) held the run forever at the end-of-step check (the second channel
that asks whether a finished step's processes are gone), at a timed-out step's kill, and at a
step's own start. Each is now bounded: the finished step keeps its result, the timed-out step
says its processes could not be killed, and a step that never started says so with a hint.

The host is real: the test stops the connection's own sshd process (SIGSTOP) right after it
opened the channel, before the exec request goes out, and lets it go on (SIGCONT) at the end.
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import spec_debug.runner.ssh as ssh_module
import spec_debug.runner.ssh_transport as ssh_transport
from spec_debug.errors import TransportError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import RemoteFileError
from tests.ssh.h8_helpers import SftpLineServer
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

# The step's sshd: the first ancestor of the step's shell named sshd (its session process).
WRITE_SSHD_PID = (
    "p=$$; while [ \"$(cat /proc/$p/comm)\" != sshd ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done; echo $p > {file}"
)


@pytest.fixture
def frozen(tmp_path: Path) -> Iterator[list[int]]:
    """The pids the test stopped, let go again at the end."""
    stopped: list[int] = []
    yield stopped
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass


def _freeze_before(monkeypatch: pytest.MonkeyPatch, name: str, pid_file: Path, stopped: list[int], *, call: int = 1) -> None:
    """Stop the step's sshd just before the `call`th call of module function `name` (one that
    comes between a channel's open and its exec or subsystem request)."""
    original = getattr(ssh_module, name)
    calls = []

    def frozen_first(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == call:
            pid = int(pid_file.read_text())
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        return original(*args, **kwargs)

    monkeypatch.setattr(ssh_module, name, frozen_first)


# The bound on a wait the test expects to end by itself within about a second (the product's
# bounds are set to 1 s here): without them it never ends (the sshd is stopped for good). 4.5 s
# was within reach of the good path on a loaded 2-core machine (a login, a step, and the 1 s bound).
_NEVER_S = 60.0


def _within(seconds: float, call: Callable[[], Any]) -> Any:
    """call() in a thread; fails the test instead of hanging when it outlasts `seconds`."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting for the frozen sshd after {seconds:g} s"
    if "error" in result:
        raise result["error"]
    return result["value"]


def test_a_finished_step_keeps_its_result_when_the_check_channel_is_never_answered(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frozen: list[int]
) -> None:
    server = sshd_factory("frozen-check")
    client.trust(server)
    client.alias("gpu", server)
    pid_file = tmp_path / "sshd.pid"
    monkeypatch.setattr(ssh_module, "_TREE_CHECK_TIMEOUT_S", 1.0)
    with SSHTransport.connect("gpu", client.options()) as transport:
        _freeze_before(monkeypatch, "_exec_script", pid_file, frozen)
        stdout = StreamCapture("stdout")
        # A server left in the background keeps the step's stdout open: the check runs.
        step = WRITE_SSHD_PID.format(file=pid_file) + "; echo 'GPU 0: NVIDIA H100'; sleep 3 & exit 0"
        outcome = _within(_NEVER_S, lambda: transport.run(step, stdout=stdout, stderr=StreamCapture("stderr"), timeout_s=30))
        assert outcome.exit_code == 0
        assert "GPU 0: NVIDIA H100" in stdout.text()
        os.kill(frozen[0], signal.SIGCONT)


def test_a_timed_out_steps_kill_never_answered_says_its_processes_may_run_on(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frozen: list[int]
) -> None:
    server = sshd_factory("frozen-kill")
    client.trust(server)
    client.alias("gpu", server)
    pid_file = tmp_path / "sshd.pid"
    monkeypatch.setattr(ssh_module, "_KILL_EXEC_ANSWER_S", 1.0, raising=False)
    with SSHTransport.connect("gpu", client.options()) as transport:
        _freeze_before(monkeypatch, "_exec_script", pid_file, frozen)
        step = WRITE_SSHD_PID.format(file=pid_file) + "; sleep 30"
        with pytest.raises(TransportError) as raised:
            _within(_NEVER_S, lambda: transport.run(step, stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"), timeout_s=1))
        os.kill(frozen[0], signal.SIGCONT)
    message = raised.value.message
    assert message.startswith("gpu: the step timed out (1 s) and its processes could not be killed: ")
    assert "did not start its command within 1 s" in message and "\n" not in message
    assert "may still run on the host" in (raised.value.hint or "")


def test_a_step_whose_exec_is_never_answered_fails_with_a_hint(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frozen: list[int]
) -> None:
    server = sshd_factory("frozen-step")
    client.trust(server)
    client.alias("gpu", server, ConnectTimeout=3)
    pid_file = tmp_path / "sshd.pid"
    monkeypatch.setattr(ssh_transport, "REQUEST_ANSWER_FLOOR_S", 0.0)  # ConnectTimeout 3 is the whole wait (1 s bounded the login too: a loaded machine could pass it)
    with SSHTransport.connect("gpu", client.options()) as transport:
        first = transport.run(WRITE_SSHD_PID.format(file=pid_file), stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
        assert first.exit_code == 0
        _freeze_before(monkeypatch, "_send_environment", pid_file, frozen)
        with pytest.raises(TransportError) as raised:
            _within(_NEVER_S, lambda: transport.run("echo hi", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr")))
        os.kill(frozen[0], signal.SIGCONT)
    assert raised.value.message == "gpu: the server opened the step's channel but did not start its command within 3 s"
    assert "hung or overloaded" in (raised.value.hint or "")


@pytest.mark.parametrize("subsystem, freeze_at, said", [
    ("internal-sftp", 1, "gpu: the server opened the SFTP channel but did not start its sftp-server within 3 s"),
    # No `Subsystem sftp` line (hardened images): the copy goes over `cat` on a second channel.
    ("", 2, "gpu: the server opened the copy's channel but did not start its command within 3 s"),
])
def test_a_copy_whose_request_is_never_answered_fails_with_a_hint(
    client: ClientSetup, client_key: ClientKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frozen: list[int],
    subsystem: str, freeze_at: int, said: str,
) -> None:
    server = SftpLineServer(tmp_path / "sshd-frozen-copy", [client_key], subsystem=subsystem).start()
    try:
        client.trust(server)
        client.alias("gpu", server, ConnectTimeout=3)
        pid_file = tmp_path / "sshd.pid"
        monkeypatch.setattr(ssh_transport, "REQUEST_ANSWER_FLOOR_S", 0.0)  # ConnectTimeout 3 is the whole wait (1 s bounded the login too: a loaded machine could pass it)
        with SSHTransport.connect("gpu", client.options()) as transport:
            first = transport.run(WRITE_SSHD_PID.format(file=pid_file), stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
            assert first.exit_code == 0
            _freeze_before(monkeypatch, "_send_environment", pid_file, frozen, call=freeze_at)
            with pytest.raises(RemoteFileError) as raised:
                _within(_NEVER_S, lambda: transport.get("/etc/hostname", tmp_path / "hostname"))
            os.kill(frozen[0], signal.SIGCONT)
        assert raised.value.message == said
        assert "hung or overloaded" in (raised.value.hint or "")
    finally:
        server.stop()
