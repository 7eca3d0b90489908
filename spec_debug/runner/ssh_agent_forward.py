"""ForwardAgent: the step's session gets the local ssh-agent, as `ssh -A` gives it, where the
ssh config asks for it (ssh_config(5), ForwardAgent: yes, a socket path or $VARIABLE)."""

from __future__ import annotations

import os
import selectors
import socket
import threading

import paramiko

from spec_debug.runner.ssh_tokens import identity_agent_socket

_RELAY_SIZE = 65536


def agent_to_forward(value: str | None, identity_agent: str | None) -> str | None:
    """The socket ForwardAgent forwards, or None for none. `yes` forwards the agent the login
    signs with (`identity_agent`, IdentityAgent as identity_agent_socket read it, else
    $SSH_AUTH_SOCK: openssh-portable, ssh.c, main sets SSH_AUTH_SOCK from IdentityAgent, which
    clientloop.c's agent channels then reach); a path or `$VAR` names another socket (OpenSSH
    8.1+), expanded as IdentityAgent's is (ssh.c expands both the same way): an unset `$VAR`
    forwards none, an unset `${VAR}` is an error as in ssh(1)."""
    if value is None or value.lower() in ("no", "false"):
        return None
    if value.lower() not in ("yes", "true"):
        socket_path = identity_agent_socket(value)
    elif identity_agent is None or identity_agent == "SSH_AUTH_SOCK":
        socket_path = os.environ.get("SSH_AUTH_SOCK")
    else:
        socket_path = identity_agent
    return None if not socket_path or socket_path.lower() == "none" else os.path.expanduser(socket_path)


def forward_agent(channel: paramiko.Channel, socket_path: str) -> None:
    """Ask sshd to give the session an agent socket (SSH_AUTH_SOCK on the host) whose
    connections are relayed to `socket_path` here. sshd refusing it (AllowAgentForwarding no)
    costs the step nothing: ssh(1) goes on without it too."""

    def accept(remote: paramiko.Channel) -> None:  # called in paramiko's transport thread
        threading.Thread(target=_relay, args=(remote, socket_path), name="agent-forward", daemon=True).start()

    try:
        channel.request_forward_agent(accept)
    except (paramiko.SSHException, EOFError, OSError):
        pass


def _relay(remote: paramiko.Channel, socket_path: str) -> None:
    """Copy bytes both ways between the host's agent channel and the local agent until either
    side closes."""
    try:
        local = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        local.connect(socket_path)
    except OSError:
        remote.close()  # no agent here: the host's ssh-add says it cannot reach one
        return
    with local, selectors.DefaultSelector() as watched:
        watched.register(local, selectors.EVENT_READ, remote)
        watched.register(remote, selectors.EVENT_READ, local)
        try:
            while not remote.closed:
                for ready, _ in watched.select(timeout=1.0):
                    source = ready.fileobj
                    data = source.recv(_RELAY_SIZE)  # type: ignore[union-attr]
                    if not data:
                        return
                    ready.data.sendall(data)
        except (OSError, EOFError, paramiko.SSHException):
            pass
        finally:
            remote.close()
