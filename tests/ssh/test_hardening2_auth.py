"""An ssh-agent holding many keys, as an engineer's laptop does: sshd counts every key offered
against MaxAuthTries (default 6) and hangs up with "Too many authentication failures"."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientSetup, SshServer, keygen

pytestmark = pytest.mark.skipif(shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None, reason="no ssh-agent")


@pytest.fixture
def crowded_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent_at: Callable[[Path, list[str]], Path]) -> Path:
    """A real ssh-agent with 7 keys that no server of ours knows."""
    keys = [str(keygen(tmp_path / f"work-key-{index}")) for index in range(7)]
    socket_path = agent_at(tmp_path / "agent.sock", keys)
    monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
    return socket_path


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


def test_identity_agent_from_the_config_is_the_agent_asked(
    client: ClientSetup, sshd: SshServer, agent_at: Callable[[Path, list[str]], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`IdentityAgent ~/.1password/agent.sock` (1Password, Secretive, gpg-agent): the key is only
    in that agent and $SSH_AUTH_SOCK is unset. Before, no agent was asked: "no keys found"."""
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    (client.home / ".1password").mkdir()
    agent_at(client.home / ".1password" / "agent.sock", [str(client.key.path)])
    config = client.config.read_text().replace(f"IdentityFile {client.key.path}", "IdentityAgent ~/.1password/agent.sock")
    client.config.write_text(config.replace("IdentitiesOnly yes", "IdentitiesOnly no"))
    with SSHTransport.connect("target", client.options(use_agent=True)) as transport:
        assert isinstance(transport, SSHTransport)
    # `IdentityAgent none` asks no agent, even with $SSH_AUTH_SOCK set: ssh(1) does the same.
    monkeypatch.setenv("SSH_AUTH_SOCK", str(client.home / ".1password" / "agent.sock"))
    client.config.write_text(client.config.read_text().replace("IdentityAgent ~/.1password/agent.sock", "IdentityAgent none"))
    with pytest.raises(AuthenticationError, match="no keys found"):
        SSHTransport.connect("target", client.options(use_agent=True))


def test_an_identity_agent_that_is_not_running_is_named_when_login_fails(client: ClientSetup, sshd: SshServer) -> None:
    config = client.config.read_text().replace(f"IdentityFile {client.key.path}", "IdentityAgent ~/.1password/agent.sock")
    client.config.write_text(config.replace("IdentitiesOnly yes", "IdentitiesOnly no"))
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("target", client.options(use_agent=True))
    assert "ssh-agent not reached: IdentityAgent ~/.1password/agent.sock: No such file or directory" in info.value.message
