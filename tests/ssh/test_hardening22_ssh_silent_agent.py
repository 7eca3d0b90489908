"""An ssh-agent that accepts the connection and never answers does not hold the run for good.

paramiko asks the agent for its keys and waits for the answer without limit (paramiko/agent.py,
AgentSSH._connect). An agent socket whose owner is stopped or stuck (a forwarded or gpg-agent
socket left in a tmux session, an agent waiting on a prompt no one sees) accepts and stays
silent: every host's login, and the run, --batch included, hung there. Now the agent gets
_AGENT_ANSWER_S to list its keys; then the login goes on with the key files, as with no agent,
and a failed login names the agent's silence.

The agent is a real unix socket that accepts and never writes; the host is a real sshd.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

import spec_debug.runner.ssh_agent as ssh_agent
from spec_debug.errors import AuthenticationError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, returns_within


# The bound on a login past the silent agent (its wait set to 1 s below): never reached unless
# the agent's wait is unbounded. 4 s was within reach of a login on a loaded 2-core machine.
_NEVER_S = 60.0

# The connections each silent agent accepted, by its socket's path.
ACCEPTED: dict[Path, list[socket.socket]] = {}


@pytest.fixture
def silent_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "agent.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(8)
    accepted: list[socket.socket] = []
    ACCEPTED[path] = accepted

    def accept() -> None:
        while True:
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    monkeypatch.setenv("SSH_AUTH_SOCK", str(path))
    monkeypatch.setattr(ssh_agent, "_AGENT_ANSWER_S", 1.0, raising=False)
    monkeypatch.setattr(ssh_agent, "_UNREACHABLE_AGENTS", {})  # the run's memory of silent agents
    yield path
    listener.close()
    for connection in accepted:
        connection.close()


def test_a_login_goes_on_with_the_key_file_past_a_silent_agent(client: ClientSetup, sshd: SshServer, silent_agent: Path) -> None:
    with returns_within(
        _NEVER_S, lambda: SSHTransport.connect("target", client.options(use_agent=True)), "a login past the silent agent"
    ) as transport:
        out = StreamCapture("stdout")
        assert transport.run("echo fine", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0 and out.text() == "fine\n"
    # The login waited out the agent's bound (its one connection was accepted), then went on.
    assert _accepted_soon(silent_agent) == 1


def test_a_failed_login_names_the_silent_agent(client: ClientSetup, sshd: SshServer, silent_agent: Path, tmp_path: Path) -> None:
    client.alias("nokey", sshd, IdentityFile=str(tmp_path / "absent_key"))
    with pytest.raises(AuthenticationError) as refused:
        returns_within(
            _NEVER_S, lambda: SSHTransport.connect("nokey", client.options(use_agent=True)), "a login past the silent agent"
        )
    said = refused.value.message
    assert "\n" not in said and "SSH_AUTH_SOCK" in said and "did not list its keys within 1 s" in said, said


def test_a_silent_agent_is_waited_for_once_per_run(client: ClientSetup, sshd: SshServer, silent_agent: Path) -> None:
    """Every host of a fleet, and every reconnect, waited the whole time again."""
    for _ in range(3):
        with returns_within(
            _NEVER_S, lambda: SSHTransport.connect("target", client.options(use_agent=True)), "a login past the silent agent"
        ):
            pass
    # Counted, not timed: a login on a loaded 2-core host can itself take most of a second.
    asked = _accepted_soon(silent_agent)
    assert asked == 1, f"the agent was asked {asked} times"


def _accepted_soon(agent: Path) -> int:
    """How many connections the agent accepted: at least the first, once its accept thread got to
    it (a connect returns once queued, before accept(); a loaded machine may take a while)."""
    deadline = time.monotonic() + _NEVER_S
    while not ACCEPTED[agent] and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(ACCEPTED[agent])
