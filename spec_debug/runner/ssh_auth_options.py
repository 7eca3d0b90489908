"""The options a login runs under (AuthOptions: batch mode, the prompt, the agent) and what it
has tried so far (_Attempts), shared by the modules of one login: ssh_auth, ssh_key_files,
ssh_agent, ssh_password_login."""

from __future__ import annotations

import getpass
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Callable


PassphrasePrompt = Callable[[str], str]


@dataclass(frozen=True)
class AuthOptions:
    batch: bool = False
    """Never prompt: an encrypted key that is not in the agent is an error."""
    batch_source: str = "--batch"
    """What asked for batch mode, as messages name it (--batch, or BatchMode in ssh config)."""
    use_agent: bool = True
    prompt: PassphrasePrompt = field(default=getpass.getpass)
    prompt_guard: Callable[[], AbstractContextManager[object]] = nullcontext
    """Entered while a passphrase prompt is on the terminal: a live progress display pauses
    in it, or its next redraw erases the prompt and the run seems stuck at "starting…"."""
    interactive: bool = True
    """Whether a keyboard-interactive login (a bastion's one-time code) may be answered; off
    after a changed host key was let through, as ssh(1) turns it off then."""
    refused_by_agent: tuple[tuple[bytes, str], ...] = ()
    """Agent keys (blob, label) ssh-agent would not sign with on an earlier connection of this
    login: skipped, as ssh(1) skips to its next key (ssh_handshake, _handshake_retrying)."""


@dataclass
class _Attempts:
    tried: list[str] = field(default_factory=list)
    offered: bool = False
    """A key or an answer went to the host, which refused it; `tried` also names key files
    that could not be read here (empty, damaged, a .ppk, a lone .pub), which the host never saw."""
    encrypted_skipped: list[str] = field(default_factory=list)
    no_terminal: bool = False
    """An encrypted key was skipped because there is no terminal to ask for its passphrase."""
    agent_unreachable: str | None = None
    """IdentityAgent's socket and why it could not be reached."""
    no_agent: str | None = None
    """Why no ssh-agent was asked at all (`SSH_AUTH_SOCK is not set`, `IdentityAgent none`)."""
    missing: list[str] = field(default_factory=list)
    """Configured identity files that do not exist (a typo, a key left on another machine)."""
    withheld: int = 0
    """ssh-agent's keys not offered under IdentitiesOnly yes (no IdentityFile names them)."""
    give_up: Callable[[], bool] = lambda: False
    """True once the login is over without us (the connection closed: the run was interrupted)."""
    sha1_rsa_only: bool = False
    """An RSA key was refused by a server that names no signature algorithms (sshd < 7.2)."""
    stale_certificates: list[str] = field(default_factory=list)
    """User certificates offered that say themselves that sshd refuses them (expired, not yet valid)."""
    source_bound: list[str] = field(default_factory=list)
    """User certificates offered whose source-address option leaves out this machine's address."""
    partly_accepted: list[str] = field(default_factory=list)
    """Keys the host accepted as one of two (AuthenticationMethods publickey,publickey)."""
    typed_refused: bool = False
    """The host refused the password typed for this run's earlier connection to it (keyboard-interactive):
    the next question goes to the terminal."""
    short_rsa: bool = False
    """An RSA key shorter than RequiredRSASize was skipped unoffered, as ssh(1) skips it."""
    stale_pubs: list[str] = field(default_factory=list)
    """Key files offered whose FILE.pub is another key's (ssh(1) offers the .pub's key and cannot sign)."""
    offered_types: list[str] = field(default_factory=list)
    """The key type of each key offered to the host (paramiko's get_name: `ssh-ed25519`, a
    certificate's `ssh-ed25519-cert-v01@openssh.com`)."""
    type_left_out: bool = False
    """A key whose type PubkeyAcceptedAlgorithms leaves out was skipped unoffered, as ssh(1) skips it."""
    too_open: list[tuple[str, str]] = field(default_factory=list)
    """Key files offered from disk that ssh(1) would ignore for their mode: (path, `0644`)."""
