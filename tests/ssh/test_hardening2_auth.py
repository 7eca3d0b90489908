"""An ssh-agent holding many keys, as an engineer's laptop does: sshd counts every key offered
against MaxAuthTries (default 6) and hangs up with "Too many authentication failures"."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, keygen

pytestmark = pytest.mark.skipif(shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None, reason="no ssh-agent")


@pytest.fixture
def crowded_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A real ssh-agent with 7 keys that no server of ours knows."""
    socket_path = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 5
        while not socket_path.exists():
            assert time.monotonic() < deadline, "ssh-agent did not start"
            time.sleep(0.02)
        env = {**os.environ, "SSH_AUTH_SOCK": str(socket_path)}
        keys = [str(keygen(tmp_path / f"work-key-{index}")) for index in range(7)]
        subprocess.run(["ssh-add", "-q", *keys], env=env, check=True, capture_output=True)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
        yield socket_path
    finally:
        agent.kill()
        agent.wait()


def test_too_many_agent_keys_is_named_as_the_cause(client: ClientSetup, sshd: SshServer, crowded_agent: Path) -> None:
    """Before: "closed the connection during authentication", a HandshakeError whose hint
    guessed between a restarted sshd and MaxAuthTries. sshd said which."""
    client.alias("crowded", sshd, IdentitiesOnly="no")
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("crowded", client.options(use_agent=True))
    message = info.value.message
    assert "6 key(s) offered, 6 of them from ssh-agent" in message, message
    assert "'Too many authentication failures'" in message and "MaxAuthTries" in message
    assert "IdentitiesOnly yes" in (info.value.hint or "")


def test_identities_only_keeps_the_agent_keys_out(client: ClientSetup, sshd: SshServer, crowded_agent: Path) -> None:
    """What the hint says to do works: only the host's IdentityFile is offered."""
    with SSHTransport.connect("target", client.options(use_agent=True)) as transport:
        assert isinstance(transport, SSHTransport)
