"""The ssh-agent a login asks (IdentityAgent, else $SSH_AUTH_SOCK), and AddKeysToAgent: a key
opened from its file handed to it once per run (ssh_agent_add does the adding)."""

from __future__ import annotations

import os
import socket
import threading
import time
from typing import Literal

import paramiko

from spec_debug.runner.ssh_agent_add import add_to_agent
from spec_debug.runner.ssh_auth_options import AuthOptions, _Attempts
from spec_debug.runner.ssh_config import AddKeysToAgent, SSHTarget
from spec_debug.runner.ssh_key_files import _short
from spec_debug.runner.ssh_terminal import ask_on_terminal


# Key files handed to the agent in this run (AddKeysToAgent): once, however many hosts use them.
_HANDED_TO_AGENT: set[str] = set()
_AGENT_LOCK = threading.Lock()


def _hand_to_agent(
    agent: paramiko.Agent, key: paramiko.PKey, path: str, how: AddKeysToAgent, options: AuthOptions, attempts: _Attempts
) -> None:
    """AddKeysToAgent: put a key just opened from its file into the agent, as ssh(1) does
    whether or not the host then takes it (see ssh_agent_add); `ask` asks first, as ssh(1)
    asks through ssh-askpass, and adds nothing where no one can answer."""
    with _AGENT_LOCK:
        if path in _HANDED_TO_AGENT:
            return
        _HANDED_TO_AGENT.add(path)
    if how.ask:
        answer = ask_on_terminal(f"Add key {_short(path)} to agent? (yes/no) ", options, attempts.give_up)
        if (answer or "").strip().lower() not in ("yes", "y"):
            return
    add_to_agent(agent, key, _short(path), how)


# How long the agent may take to list its keys. paramiko waits without limit (paramiko/agent.py,
# AgentSSH._connect), and an agent that accepts the connection and never answers (a stale
# forwarded or gpg-agent socket whose owner is stopped, an agent waiting on a prompt no one sees)
# held every host's login, and the run, for good, --batch included; ssh(1) would wait too, but
# it serves one host. Past this the login goes on with the key files, as with no agent.
_AGENT_ANSWER_S = 30.0
# How long connecting to the agent's socket may take. connect() on a unix socket sleeps while the
# listener's accept queue is full (Linux: net/unix/af_unix.c, unix_stream_connect waits in
# unix_wait_for_peer), and an agent that stopped accepting (stopped with SIGSTOP or Ctrl-Z, stuck
# in a frozen container, deadlocked) had every login, and the run, wait there without limit once
# its queue filled, before _AGENT_ANSWER_S could apply. A live agent accepts at once.
_AGENT_CONNECT_S = 10.0
_AGENT_CONNECT_POLL_S = 0.05
# Agent sockets that stayed silent or did not accept in this run, each with which of the two:
# later logins (other hosts, reconnects) skip them at once instead of waiting _AGENT_ANSWER_S or
# _AGENT_CONNECT_S each. The kind, not the message: the message's fix depends on how the host
# reaches the socket ($SSH_AUTH_SOCK, or an IdentityAgent naming the same one).
_UNREACHABLE_AGENTS: dict[str, Literal["silent", "unaccepting"]] = {}


def _connect_within(sock: socket.socket, path: str, seconds: float) -> None:
    """connect() to a unix socket, giving up after `seconds` while its accept queue stays full.
    A socket timeout does not bound it: a non-blocking unix connect to a full queue fails at
    once with EAGAIN instead of waiting (unlike TCP's EINPROGRESS), so it is tried again."""
    deadline = time.monotonic() + seconds
    sock.setblocking(False)
    while True:
        try:
            sock.connect(path)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"no accept within {seconds:g} s") from None
            time.sleep(_AGENT_CONNECT_POLL_S)


# SSH2_AGENTC_SIGN_REQUEST (draft-miller-ssh-agent, 3.6; paramiko/agent.py, cSSH2_AGENTC_SIGN_REQUEST).
_SIGN_REQUEST = 13
# Signatures our logins are waiting for, by agent socket. ssh-agent answers no one while it asks
# its user about a key (openssh-portable: ssh-agent.c is one thread, and confirm_key waits for
# ssh-askpass), so a listing asked meanwhile waits on that person: no silent agent.
_SIGNING_AT: dict[str, int] = {}
_SIGNING_LOCK = threading.Lock()
# How often a listing that has no answer yet looks whether the agent is busy signing for us.
_LISTING_LOOK_S = 1.0


def _signing_at(path: str) -> bool:
    with _SIGNING_LOCK:
        return _SIGNING_AT.get(path, 0) > 0


class _ListingReads:
    """The agent's socket as paramiko reads it while the keys are listed (AgentSSH._connect):
    silent for _AGENT_ANSWER_S is silent, except while another of our logins waits on a
    signature from the same agent (_SIGNING_AT), which is the agent waiting on its user."""

    def __init__(self, sock: socket.socket, path: str) -> None:
        self._sock, self._path = sock, path

    def send(self, data: bytes) -> int:
        return self._sock.send(data)

    def recv(self, size: int) -> bytes:
        quiet_since = time.monotonic()
        while True:
            try:
                return self._sock.recv(size)
            except TimeoutError:
                if _signing_at(self._path):
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since >= _AGENT_ANSWER_S:
                    raise

    def close(self) -> None:
        self._sock.close()


class _AgentAt(paramiko.Agent):
    """The ssh-agent listening at a given socket; paramiko.Agent only reads $SSH_AUTH_SOCK.

    It says when it is busy signing: an agent that waits on its user (`ssh-add -c`, a security
    key's touch, 1Password's or Secretive's approval; ssh-agent asks one confirmation at a time,
    so a fleet's logins queue behind each other) is no sshd that "did not answer authentication"
    (ssh_transport, _auth_verdict, waits for it as ssh(1) does)."""

    def __init__(self, sock: socket.socket, path: str) -> None:
        paramiko.agent.AgentSSH.__init__(self)
        self.path = path
        self.signing_since: float | None = None
        """When the signature it is making was asked for (monotonic); None when it makes none."""
        self.signed_at: float | None = None
        """When its last signature came back (monotonic)."""
        sock.settimeout(_LISTING_LOOK_S)
        self._connect(_ListingReads(sock, path))
        # Signing waits as long as the agent takes (a hardware key waiting for a touch).
        sock.settimeout(None)
        self._conn = sock

    def _send_message(self, msg: object) -> tuple[int, paramiko.Message]:
        signing = isinstance(msg, paramiko.Message) and msg.asbytes()[:1] == bytes([_SIGN_REQUEST])
        if signing:
            self.signing_since = time.monotonic()
            with _SIGNING_LOCK:
                _SIGNING_AT[self.path] = _SIGNING_AT.get(self.path, 0) + 1
        try:
            return super()._send_message(msg)  # type: ignore[no-any-return]
        finally:
            if signing:
                with _SIGNING_LOCK:
                    _SIGNING_AT[self.path] -= 1
                self.signed_at = time.monotonic()
                self.signing_since = None


def _open_agent(target: SSHTarget, options: AuthOptions, attempts: _Attempts) -> paramiko.Agent | None:
    """The agent ssh(1) would ask: IdentityAgent's socket when the config names one (1Password,
    Secretive, gpg-agent and forwarded agents are reached this way, often with no
    $SSH_AUTH_SOCK at all), none for `IdentityAgent none`, else $SSH_AUTH_SOCK's."""
    where = target.identity_agent
    # Why no agent is asked is kept for the failure: without it, it read "agent empty" on a
    # machine with no ssh-agent at all (a CI runner, cron, a fresh login node), and the reader
    # ran ssh-add, which says "Could not open a connection to your authentication agent".
    if not options.use_agent:
        attempts.no_agent = "ssh-agent not used"
        return None
    if where is not None and where.lower() == "none":
        attempts.no_agent = "no ssh-agent: IdentityAgent none"
        return None
    label = "IdentityAgent"
    if where is None or where == "SSH_AUTH_SOCK":
        # paramiko.Agent() quietly holds no keys when $SSH_AUTH_SOCK names a dead socket (a
        # tmux or screen session that outlived the login that started its agent): the
        # failure then read "agent empty". Connected here, the reason is kept for it.
        where, label = os.environ.get("SSH_AUTH_SOCK") or None, "SSH_AUTH_SOCK"
        if where is None:
            # An empty SSH_AUTH_SOCK is no agent to ssh(1) either (openssh-portable: authfd.c,
            # ssh_get_authentication_socket).
            attempts.no_agent = "no ssh-agent: SSH_AUTH_SOCK is not set"
            return None
    path = os.path.expanduser(where)
    silent = f"it accepted the connection but did not list its keys within {_AGENT_ANSWER_S:g} s"
    unaccepting = (
        f"it did not accept the connection within {_AGENT_CONNECT_S:g} s (the agent process is stopped or hung: "
        f"restart it, or {'unset SSH_AUTH_SOCK' if label == 'SSH_AUTH_SOCK' else 'set IdentityAgent none'})"
    )
    known = _UNREACHABLE_AGENTS.get(path)
    if known is not None:
        attempts.agent_unreachable = f"{label} {_short(path)}: {silent if known == 'silent' else unaccepting}"
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connected = False
    try:
        _connect_within(sock, path, _AGENT_CONNECT_S)
        connected = True
        return _AgentAt(sock, path)
    except (OSError, paramiko.SSHException) as exc:
        # ssh(1) also goes on with the key files when the agent is not there (1Password locked).
        sock.close()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if isinstance(exc, TimeoutError):
            reason = silent if connected else unaccepting
            with _AGENT_LOCK:
                _UNREACHABLE_AGENTS[path] = "silent" if connected else "unaccepting"
        attempts.agent_unreachable = f"{label} {_short(path)}: {reason}"
        return None
