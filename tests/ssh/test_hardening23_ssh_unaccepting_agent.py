"""An ssh-agent socket whose listener never accepts does not hold the login for good.

connect() on a unix socket sleeps while the listener's accept queue is full (Linux:
net/unix/af_unix.c, unix_stream_connect), and an agent that stopped accepting (stopped with
Ctrl-Z or SIGSTOP, frozen in a container, deadlocked) filled its queue and then held every
login, and the run, --batch included, in that connect: the 30 s bound on the agent's answer
(test_hardening22_ssh_silent_agent) starts only once connected. Now the connect gets
_AGENT_CONNECT_S; then the login goes on with the key files, a failed login names the agent
that did not accept, and later logins of the run skip it at once.

The agent is a real unix socket listening with a full accept queue; the host is a real sshd.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Iterator

import pytest

import spec_debug.runner.ssh_agent as ssh_agent
from spec_debug.errors import AuthenticationError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, returns_within


@pytest.fixture
def unaccepting_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "agent.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(0)  # an accept queue of one, filled below, never accepted from
    filler = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    filler.connect(str(path))
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.setblocking(False)
    with pytest.raises(BlockingIOError):
        probe.connect(str(path))  # the queue is full: a blocking connect would now wait for good
    probe.close()
    monkeypatch.setenv("SSH_AUTH_SOCK", str(path))
    monkeypatch.setattr(ssh_agent, "_AGENT_CONNECT_S", 1.0, raising=False)
    monkeypatch.setattr(ssh_agent, "_UNREACHABLE_AGENTS", {})  # the run's memory
    yield path
    filler.close()
    listener.close()


def test_a_login_goes_on_with_the_key_file_past_an_agent_that_never_accepts(
    client: ClientSetup, sshd: SshServer, unaccepting_agent: Path
) -> None:
    with returns_within(
        20.0, lambda: SSHTransport.connect("target", client.options(use_agent=True)), "a login past the agent's socket"
    ) as transport:
        out = StreamCapture("stdout")
        assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0 and out.text() == "fine\n"


def test_a_failed_login_names_the_agent_that_never_accepted(
    client: ClientSetup, sshd: SshServer, unaccepting_agent: Path, tmp_path: Path
) -> None:
    client.alias("nokey", sshd, IdentityFile=str(tmp_path / "absent_key"))
    with pytest.raises(AuthenticationError) as refused:
        returns_within(
            20.0, lambda: SSHTransport.connect("nokey", client.options(use_agent=True)), "a login past the agent's socket"
        )
    said = refused.value.message
    assert "\n" not in said and "SSH_AUTH_SOCK" in said and "did not accept the connection within 1 s" in said, said
    assert "unset SSH_AUTH_SOCK" in said, said


def test_an_agent_that_never_accepts_is_waited_for_once_per_run(
    client: ClientSetup, sshd: SshServer, unaccepting_agent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every host of a fleet, and every reconnect, would wait the whole time again. Counted, not timed."""
    tries: list[str] = []
    real = getattr(ssh_agent, "_connect_within", None)

    def counted(sock: socket.socket, path: str, seconds: float) -> None:
        tries.append(path)
        assert real is not None
        real(sock, path, seconds)

    monkeypatch.setattr(ssh_agent, "_connect_within", counted, raising=False)
    for _ in range(3):
        with returns_within(
            20.0, lambda: SSHTransport.connect("target", client.options(use_agent=True)), "a login past the agent's socket"
        ):
            pass
    assert tries == [str(unaccepting_agent)], tries
