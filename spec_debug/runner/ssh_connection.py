"""The types of opening connections: ConnectOptions (how to reach hosts, from the CLI) and
Connection (an authenticated transport and the jump connections under it)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import paramiko

from spec_debug.runner.ssh_auth import AuthOptions, PassphrasePrompt
from spec_debug.runner.ssh_config import SSHTarget


DEFAULT_MAX_SESSIONS = 10
"""sshd_config(5) MaxSessions default: channels one connection may have open at once."""


@dataclass(frozen=True)
class ConnectOptions:
    """How to reach hosts; built once from the CLI options and shared by every host."""

    ssh_config_path: Path | None = None
    """`-F FILE`; None reads ~/.ssh/config when it exists."""
    accept_new: bool = False
    """`--accept-new`: add unknown host keys to known_hosts (changed keys are still refused)."""
    batch: bool = False
    """`--batch`: never prompt (an encrypted key not in the agent is an error)."""
    connect_timeout_s: float | None = None
    """Overrides ConnectTimeout from the config (default 15 s)."""
    known_hosts: Path | None = None
    """Overrides UserKnownHostsFile (reads and writes this file only)."""
    max_sessions: int = DEFAULT_MAX_SESSIONS
    use_agent: bool = True
    prompt: PassphrasePrompt | None = None
    """Passphrase prompt; None uses getpass."""
    prompt_guard: Callable[[], AbstractContextManager[object]] | None = None
    """Entered while a passphrase prompt is on the terminal (the CLI pauses its spinner in it)."""
    refused_by_agent: tuple[tuple[bytes, str], ...] = ()
    """Agent keys (blob, label) ssh-agent would not sign with on an earlier try of this login:
    not offered again (see _handshake_retrying)."""

    def auth_options(self) -> AuthOptions:
        chosen: dict[str, object] = {}
        if self.prompt is not None:
            chosen["prompt"] = self.prompt
        if self.prompt_guard is not None:
            chosen["prompt_guard"] = self.prompt_guard
        return AuthOptions(batch=self.batch, use_agent=self.use_agent, refused_by_agent=self.refused_by_agent,
                           **chosen)  # type: ignore[arg-type]


@dataclass
class Connection:
    """An authenticated paramiko transport and the jump connections it runs through."""

    target: SSHTarget
    transport: paramiko.Transport
    via: list["Connection"] = field(default_factory=list)
    release: Callable[[], None] | None = None
    """For a jump connection shared by several hosts: give it back instead of closing it."""

    def close(self) -> None:
        if self.release is not None:
            self.release()
            return
        try:
            self.transport.close()
        finally:
            for hop in reversed(self.via):
                hop.close()
