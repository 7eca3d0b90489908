"""Whose turn a connection's time went to: the host's (a message of ours unanswered) or ours
(everything answered, the next message not yet sent).

sshd ends a login that outlasts its LoginGraceTime without a word (openssh-portable:
sshd-session.c, grace_alarm_handler). Either side can be the slow one: a host that checks a
key for seconds (an AuthorizedKeysCommand asking LDAP, sssd, an NFS home), or this side (a
passphrase typed slowly, ssh-agent waiting for a confirmation or a security key's touch). The
fix differs, so the message says which side had the time. The transport's packetizer keeps
one of these (ssh_transport): sent() on every message written, answered() on every message
read, ended() when reading meets the connection's end; closed_mid_login turns them into the
error of a key or password login the host hung up on.
"""

from __future__ import annotations

import threading
import time

import paramiko

from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_errors import HandshakeError


class LoginTurns:
    def __init__(self) -> None:
        self.ours_s = 0.0
        self.theirs_s = 0.0
        self._lock = threading.Lock()  # written from the caller's thread, read in the transport's
        self._waiting_since: float | None = None
        self._ours_since = time.monotonic()

    def sent(self) -> None:
        with self._lock:
            now = time.monotonic()
            if self._waiting_since is None:
                self.ours_s += now - self._ours_since
                self._waiting_since = now

    def answered(self) -> None:
        with self._lock:
            now = time.monotonic()
            if self._waiting_since is not None:
                self.theirs_s += now - self._waiting_since
                self._waiting_since = None
            self._ours_since = now

    def ended(self) -> None:
        """The connection's end: its last stretch goes to whoever had the turn."""
        with self._lock:
            now = time.monotonic()
            if self._waiting_since is not None:
                self.theirs_s += now - self._waiting_since
            else:
                self.ours_s += now - self._ours_since
            self._waiting_since, self._ours_since = None, now

    @property
    def host_was_slower(self) -> bool:
        return self.theirs_s >= self.ours_s


_SSHD_WENT_AWAY = "sshd went away mid-login (restarted, killed, its host or jump host went down)"


def closed_mid_login(
    transport: paramiko.Transport, target: SSHTarget, where: str, *, during: str, host_checks: str, our_fix: str
) -> HandshakeError:
    """The host hung up during the login. Without a reason given, that is how sshd ends a login
    that outlasts its LoginGraceTime: it logs "Timeout before authentication" and exits, saying
    nothing to the client (openssh-portable: sshd-session.c, grace_alarm_handler; sshd.c before
    9.8). It read "sshd went away mid-login", or "failed during authentication: No existing
    session" when a prompt outlasted it; the turns say which side had the time. `during` says
    where the login was ("before the password was sent"); `host_checks` what a slow host checks; `our_fix` how this side can be quicker."""
    reason = getattr(transport, "disconnect_reason", None)  # what sshd said, if it said anything
    if reason is not None:
        return HandshakeError(
            f"{target.alias}: {where} closed the connection during authentication ({during}; sshd said {reason!r})",
            hint="sshd ended the login: ask the host's admin what its log says for this connection",
        )
    grace = "sshd cuts off a login not finished within its LoginGraceTime (120 s by default) like this"
    turns: LoginTurns | None = getattr(getattr(transport, "packetizer", None), "turns", None)
    if turns is None:  # a transport not built by ssh_transport (its packetizer keeps the turns)
        return HandshakeError(
            f"{target.alias}: {where} closed the connection during authentication, without a reason ({during})",
            hint=f"{grace}: the host may be slow to check {host_checks}, or this side slow to answer; or {_SSHD_WENT_AWAY}",
        )
    total = f"{turns.ours_s + turns.theirs_s:.0f} s after the connection opened"
    if turns.host_was_slower:
        return HandshakeError(
            f"{target.alias}: {where} closed the connection during authentication, {total}, without a reason; "
            f"the host had spent {turns.theirs_s:.0f} s of it not answering ({during})",
            hint=f"{grace}: the host is slow to check {host_checks} (its sshd log says \"Timeout before "
            f"authentication\"): ask its admin to fix that or raise LoginGraceTime; or {_SSHD_WENT_AWAY}",
        )
    return HandshakeError(
        f"{target.alias}: {where} closed the connection during authentication, {total}, without a reason; "
        f"spec-debug had spent {turns.ours_s:.0f} s of it preparing the login: a passphrase or password prompt, "
        f"ssh-agent asking to confirm a key, a security key waiting for a touch ({during})",
        hint=f"{grace}: {our_fix}, or ask the host's admin to raise LoginGraceTime; or {_SSHD_WENT_AWAY}",
    )
