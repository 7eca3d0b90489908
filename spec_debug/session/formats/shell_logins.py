"""Where the commands of a terminal log ran when the prompt does not say: after an interactive
``ssh gpu01`` (no remote command) the shell that reads the next commands is gpu01's, until
``exit``/``logout`` or ssh's ``Connection to gpu01 closed.`` (:mod:`formats.text_log`).

A prompt that shows its host (``me@gpu01:~$``) is the better witness and wins; this only fills
in for prompts without one (``$``, oh-my-zsh's ``➜  sglang``, starship's ``❯``)."""

from __future__ import annotations

from spec_debug.session import shell

_LOGIN_PROGRAMS = frozenset({"ssh", "autossh", "mosh", "tsh", "gcloud"})
"""Programs that open a shell on another host (the target itself is read by
:func:`shell.parse_target`)."""
_CONTROL = frozenset({";", "&&", "||", "|", "&"})
_LOGIN_FAILED = ("ssh: ", "Permission denied", "Host key verification failed", "Connection closed by",
                 "kex_exchange_identification", "Connection reset by")
"""What OpenSSH prints when no shell was opened: ``ssh: connect to host gpu01 port 22:
Connection refused``, ``ssh: Could not resolve hostname``, ``Permission denied (publickey)``
(openssh/openssh-portable ``sshconnect.c``, ``sshconnect2.c``)."""
_MAX_SCANNED = 200
"""Output lines looked at after a login or for a closed connection (a banner, the motd)."""


def _closed(line: str) -> bool:
    """ssh's note when the session ends, ``Connection to gpu01 closed.`` or ``... closed by
    remote host.`` (openssh/openssh-portable ``clientloop.c``)."""
    return "Connection to " in line and " closed" in line


class Logins:
    """The hosts a terminal log logged into, innermost last."""

    __slots__ = ("exited", "pending", "stack")

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.pending: str | None = None
        """Host of an interactive login whose output (did it open a shell?) is still coming."""
        self.exited = False
        """The last command left a login (its output says the connection closed: once)."""

    def settle(self, output: list[str]) -> None:
        """The output of the last command is complete: a login it started opened a shell (or
        failed), or the connection it ran in closed (Ctrl-D, a dropped link)."""
        head = output[:_MAX_SCANNED]
        if self.pending is not None:
            host, self.pending = self.pending, None
            if not any(mark in line for line in head for mark in _LOGIN_FAILED) \
                    and not any(_closed(line) for line in head):
                self.stack.append(host)
        elif self.stack and not self.exited and any(_closed(line) for line in head):
            self.stack.pop()
        self.exited = False

    def where(self, shown: str | None) -> str | None:
        """The host a command ran on: the prompt's, else the innermost login's."""
        if shown is not None:
            return shown
        return self.stack[-1] if self.stack else None

    def ran(self, command: str, shown: str | None) -> None:
        """Note a command once its host is known (:meth:`where`)."""
        if shown is not None:
            self.stack.clear()  # the prompt says where the shell is
        first = command.split(None, 1)[0] if command else ""
        if first in ("exit", "logout"):
            if self.stack:
                self.stack.pop()
                self.exited = True
            return
        if first.rsplit("/", 1)[-1] in _LOGIN_PROGRAMS:
            self.pending = _login_host(command)


def _login_host(command: str) -> str | None:
    """The host ``command`` opens a shell on: a login with no remote command, not a tunnel
    (``ssh -N``) or one sent to the background (``ssh -f``)."""
    words = shell.split_words(command)
    if any(w in _CONTROL for w in words):
        return None
    if words[0].endswith("ssh") and any(w[:1] == "-" and w[1:2] != "-" and ("N" in w or "f" in w) for w in words):
        return None
    target = shell.parse_target(command)
    if target.host is None or target.inner or target.container is not None:
        return None
    return target.host
