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
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError, UsageError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, fingerprint

PASSPHRASE = "correct horse battery"


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A real ssh-agent of our own (foreground, -D), reached through $SSH_AUTH_SOCK."""
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None:
        pytest.skip("needs ssh-agent and ssh-add")
    socket_path = tmp_path / "agent.sock"
    # A key added with confirmation is confirmed through ssh-askpass: /bin/false declines each
    # use, as a person clicking "deny" (or a 1Password approval refused) does.
    environment = {**os.environ, "SSH_ASKPASS": "/bin/false", "SSH_ASKPASS_REQUIRE": "force"}
    environment.pop("DISPLAY", None)
    process = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=environment)
    try:
        deadline = time.monotonic() + 30
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


def _recording_relay(agent: Path, at: Path) -> tuple[list[bytes], Callable[[], None]]:
    """A socket at `at` that passes each connection on to the agent at `agent`; returns the list
    it fills with what each connection's client sent, then what the agent answered, as one
    bytes object each (the agent protocol's length-prefixed messages, draft-miller-ssh-agent),
    and the call that closes the relay and ends its thread (its accept loop looks every 0.1 s)."""
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(at))
    listener.listen(8)
    listener.settimeout(0.1)
    said: list[bytes] = []
    closed = threading.Event()

    def pipe(source: socket.socket, sink: socket.socket, kept: bytearray) -> None:
        try:
            while data := source.recv(65536):
                kept += data
                sink.sendall(data)
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the other side went

    def serve() -> None:
        while not closed.is_set():
            try:
                client, _ = listener.accept()  # a blocking socket (no default timeout is set)
            except TimeoutError:
                continue
            upstream = socket.socket(socket.AF_UNIX)
            live[:] = [client, upstream]
            with client, upstream:
                upstream.connect(str(agent))
                asked, answered = bytearray(), bytearray()
                ask = threading.Thread(target=pipe, args=(client, upstream, asked), daemon=True)
                answer = threading.Thread(target=pipe, args=(upstream, client, answered), daemon=True)
                ask.start()
                answer.start()
                ask.join()
                answer.join()
                said.extend([bytes(asked), bytes(answered)])

    live: list[socket.socket] = []
    server = threading.Thread(target=serve, daemon=True)
    server.start()

    def close() -> None:
        closed.set()
        for sock in list(live):  # a connection its client left open ends too
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # closed already
        server.join(60)
        listener.close()

    return said, close


def _messages(stream: bytes) -> list[bytes]:
    """The messages (type byte first) of one direction of an agent connection."""
    found = []
    while len(stream) >= 4:
        size = int.from_bytes(stream[:4], "big")
        found.append(stream[4 : 4 + size])
        stream = stream[4 + size :]
    return found


def test_a_lifetime_reaches_the_agent_which_then_forgets_the_key(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest,
) -> None:
    """`AddKeysToAgent 3` (a time: yes, for three seconds), as `ssh-add -t 3` would add it.

    What reached the agent is read on the way (a relay between the login and the agent): the
    key listed right after the login was a race with those 3 s, which a loaded machine lost
    (the connect, its close and two ssh-add runs in between)."""
    server, key = locked_host
    _alias(client, server, key, "3")
    said, close_relay = _recording_relay(agent, tmp_path / "relay.sock")
    request.addfinalizer(close_relay)
    monkeypatch.setenv("SSH_AUTH_SOCK", str(tmp_path / "relay.sock"))
    with SSHTransport.connect("gpu01", client.options(batch=False, use_agent=True, prompt=lambda _: PASSPHRASE)):
        pass
    monkeypatch.setenv("SSH_AUTH_SOCK", str(agent))
    # SSH_AGENTC_ADD_ID_CONSTRAINED (25) ending in the lifetime constraint (1) of 3 s, which the
    # agent took (SSH_AGENT_SUCCESS, 6), as ssh-add -t 3 sends it.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(m[:1] == b"\x19" for stream in said[0::2] for m in _messages(stream)):
        time.sleep(0.05)  # the relay records a connection once both its sides have ended
    exchanges = list(zip(said[0::2], said[1::2]))
    added = [(asked, answered) for asked, answered in exchanges if any(m[:1] == b"\x19" for m in _messages(asked))]
    assert len(added) == 1, [[m[:1] for m in _messages(asked)] for asked, _ in exchanges]
    asked, answered = added[0]
    [request] = [m for m in _messages(asked) if m[:1] == b"\x19"]
    assert request.endswith(b"\x01" + (3).to_bytes(4, "big")), request[-8:]
    assert b"\x06" in _messages(answered), _messages(answered)
    wanted = fingerprint(Path(f"{key.path}.pub"))
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


def _add_with_confirmation(key: ClientKey, tmp_path: Path) -> None:
    """`ssh-add -c KEY`, its passphrase answered by an ssh-askpass of ours."""
    answer = tmp_path / "askpass"
    answer.write_text(f"#!/bin/sh\necho '{PASSPHRASE}'\n")
    answer.chmod(0o755)
    subprocess.run(["ssh-add", "-c", str(key.path)], check=True, capture_output=True, stdin=subprocess.DEVNULL,
                   env={**os.environ, "SSH_ASKPASS": str(answer), "SSH_ASKPASS_REQUIRE": "force"})


def test_a_key_the_agent_will_not_sign_with_is_passed_over_for_the_next_one(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path, tmp_path: Path
) -> None:
    """A key added with confirmation (`ssh-add -c`, `AddKeysToAgent confirm`) and its use
    declined: ssh(1) says "agent refused operation" and offers its next key. paramiko closes the
    connection on the refusal, and the host failed with "ssh-agent would not sign" although the
    key's file was right there to open."""
    server, key = locked_host
    _alias(client, server, key, "no")
    _add_with_confirmation(key, tmp_path)
    assert fingerprint(Path(f"{key.path}.pub")) in _agent_fingerprints()
    asked: list[str] = []

    def person(question: str) -> str:
        asked.append(question)
        return PASSPHRASE

    with SSHTransport.connect("gpu01", client.options(batch=False, use_agent=True, prompt=person)) as transport:
        assert transport.connection.transport.is_authenticated()
    assert len(asked) == 1 and "Enter passphrase for key" in asked[0], asked


def test_when_no_other_key_is_left_the_agents_refusal_is_named(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path, tmp_path: Path
) -> None:
    server, key = locked_host
    _add_with_confirmation(key, tmp_path)
    client.alias("gpu01", server, IdentityFile="none", IdentitiesOnly="no")
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu01", client.options(batch=True, use_agent=True))
    message = refused.value.message
    assert message.startswith("gpu01: ssh-agent would not sign with agent key SHA256:"), message
    assert "ssh-add -c" in (refused.value.hint or "")


def test_under_batch_the_encrypted_file_behind_a_declined_agent_key_is_named_with_it(
    client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path, tmp_path: Path
) -> None:
    server, key = locked_host
    _alias(client, server, key, "no")
    _add_with_confirmation(key, tmp_path)
    with pytest.raises(AuthenticationError) as refused:
        SSHTransport.connect("gpu01", client.options(batch=True, use_agent=True))
    message = refused.value.message
    assert "is encrypted and --batch forbids the passphrase prompt; ssh-agent would not sign with agent key" in message, message


def test_ask_adds_the_key_only_after_a_yes(client: ClientSetup, locked_host: tuple[SshServer, ClientKey], agent: Path) -> None:
    """`AddKeysToAgent ask`: ssh(1) asks "Add key ... to agent?" (through ssh-askpass) first."""
    server, key = locked_host
    _alias(client, server, key, "ask")
    asked: list[str] = []

    def person(question: str) -> str:
        asked.append(question)
        return "no" if "to agent?" in question else PASSPHRASE

    with SSHTransport.connect("gpu01", client.options(batch=False, use_agent=True, prompt=person)):
        pass
    assert [q for q in asked if "to agent?" in q] == [f"Add key {key.path} to agent? (yes/no) "], asked
    assert _agent_fingerprints() == []
