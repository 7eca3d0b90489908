"""Whose turn a connection's time went to: the host's (a message of ours unanswered) or ours
(everything answered, the next message not yet sent).

sshd ends a login that outlasts its LoginGraceTime without a word (openssh-portable:
sshd-session.c, grace_alarm_handler). Either side can be the slow one: a host that checks a
key for seconds (an AuthorizedKeysCommand asking LDAP, sssd, an NFS home), or this side (a
passphrase typed slowly, ssh-agent waiting for a confirmation or a security key's touch). The
fix differs, so the message says which side had the time. The transport's packetizer keeps
one of these (ssh_transport): sent() on every message written, answered() on every message
read, ended() when reading meets the connection's end.
"""

from __future__ import annotations

import threading
import time


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
