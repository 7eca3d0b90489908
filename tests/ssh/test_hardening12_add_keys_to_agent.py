"""`AddKeysToAgent yes` in ~/.ssh/config: the passphrase once, then the agent signs.

People with an encrypted key set AddKeysToAgent so that the first `ssh` of a login session
puts the key into ssh-agent (ssh_config(5)); every later tool, scripts under --batch included,
then signs through the agent. spec-debug ignored the keyword: the key never reached the agent,
its passphrase was asked on every run, and a --batch run right after a terminal run failed
with "private key ... is encrypted" although `ssh` would by then have loaded it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, fingerprint

PASSPHRASE = "correct horse battery"


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A real ssh-agent of our own (foreground, -D), reached through $SSH_AUTH_SOCK."""
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None:
        pytest.skip("needs ssh-agent and ssh-add")
    socket_path = tmp_path / "agent.sock"
    process = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not socket_path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket_path))
        yield socket_path
    finally:
        process.kill()
        process.wait()


def _agent_fingerprints() -> list[str]:
    listed = subprocess.run(["ssh-add", "-l"], capture_output=True, text=True, check=False)
    # `BITS SHA256:... COMMENT (TYPE)` per key; "The agent has no identities." when empty.
    return [line.split()[1] for line in listed.stdout.splitlines() if line[:1].isdigit()]


@pytest.fixture
def locked_host(client: ClientSetup, tmp_path: Path) -> Iterator[tuple[SshServer, ClientKey]]:
    """A host that takes only an encrypted key, which the agent does not hold yet."""
    key = ClientKey.create(tmp_path / "keys", "id_gpu", passphrase=PASSPHRASE)
    server = SshServer(tmp_path / "sshd-locked", [key]).start()
    client.trust(server)
    try:
        yield server, key
    finally:
        server.stop()


def _alias(client: ClientSetup, server: SshServer, key: ClientKey, add_keys: str) -> None:
    client.alias("gpu01", server, IdentityFile=str(key.path), AddKeysToAgent=add_keys)


def test_the_passphrase_typed_once_puts_the_key_in_the_agent_and_a_batch_run_then_logs_in(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path
) -> None:
    server, key = locked_host
    _alias(client, server, key, "yes")
    asked: list[str] = []

    def person(question: str) -> str:
        asked.append(question)
        return PASSPHRASE

    with SSHTransport.connect("gpu01", client.options(batch=False, use_agent=True, prompt=person)):
        pass
    assert len(asked) == 1 and "Enter passphrase for key" in asked[0], asked
    assert fingerprint(Path(f"{key.path}.pub")) in _agent_fingerprints()
    # The next run, in a script: no one to type the passphrase, the agent signs.
    with SSHTransport.connect("gpu01", client.options(batch=True, use_agent=True)) as transport:
        assert transport.connection.transport.is_authenticated()


def test_a_lifetime_reaches_the_agent_which_then_forgets_the_key(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path
) -> None:
    """`AddKeysToAgent 3` (a time: yes, for three seconds), as `ssh-add -t 3` would add it."""
    server, key = locked_host
    _alias(client, server, key, "3")
    with SSHTransport.connect("gpu01", client.options(batch=False, use_agent=True, prompt=lambda _: PASSPHRASE)):
        pass
    wanted = fingerprint(Path(f"{key.path}.pub"))
    assert wanted in _agent_fingerprints()
    deadline = time.monotonic() + 15
    while wanted in _agent_fingerprints() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert wanted not in _agent_fingerprints()


def test_without_the_keyword_the_agent_is_left_alone(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path
) -> None:
    server, key = locked_host
    _alias(client, server, key, "no")
    with SSHTransport.connect("gpu01", client.options(batch=False, use_agent=True, prompt=lambda _: PASSPHRASE)):
        pass
    assert _agent_fingerprints() == []


@pytest.mark.parametrize("value", ["maybe", "yes 1h", "ask 5m"])
def test_a_value_ssh_refuses_is_refused_with_the_line_to_fix(client: ClientSetup, sshd: SshServer, value: str) -> None:
    """ssh(1) stops at these too (`ssh -G`: "unsupported option"); ignored, the two disagreed."""
    client.alias("gpu01", sshd, AddKeysToAgent=value)
    with pytest.raises(UsageError) as refused:
        SSHTransport.connect("gpu01", client.options())
    assert refused.value.message == f"ssh config: AddKeysToAgent {value!r} is not a value ssh(1) takes"
    assert "confirm 5m" in (refused.value.hint or "")


def test_with_no_agent_running_the_login_goes_on(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AddKeysToAgent with no agent running: ssh(1) goes on without adding, and so do we."""
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    client.alias("gpu01", sshd, AddKeysToAgent="confirm 5m")
    with SSHTransport.connect("gpu01", client.options(use_agent=True)) as transport:
        assert transport.connection.transport.is_authenticated()
    assert os.environ.get("SSH_AUTH_SOCK") is None
