"""ProxyCommand: the command run through the user's shell as ssh(1) runs it, used as the
connection's socket, and the reason it gives when it ends."""

from __future__ import annotations

import math
import os
import re
import select
import shlex
import socket
import subprocess
import threading
import time

import paramiko

from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_errors import HostUnreachableError


def _proxy_command(target: SSHTarget, command_line: str | None = None) -> "_ProxyCommand":
    """Start the target's ProxyCommand, or `command_line` in its place (the command without its
    -q: ProxySaidNothing); messages name the command as configured."""
    assert target.proxy_command is not None
    try:
        return _ProxyCommand(command_line or target.proxy_command)
    except (OSError, ValueError, paramiko.SSHException) as exc:
        raise HostUnreachableError(f"{target.alias}: ProxyCommand {target.proxy_command!r} failed to start: {exc}") from None


class _ProxyCommand(paramiko.ProxyCommand):
    """paramiko's ProxyCommand, made to notice that the command ended and to say why.

    paramiko's recv loops on os.read while the command's stdout is at EOF, so a proxy that
    exits (bastion down, key refused) spins a CPU until the banner timeout and is reported as a
    stalled host; later in a session it is never noticed at all, and its stderr pipe, which
    nobody reads, can fill and block it (paramiko/paramiko: paramiko/proxy.py, recv). Here EOF
    ends recv (the packetizer turns b"" into EOFError), and stderr is drained into a short
    tail that the error message quotes.
    """

    _STDERR_TAIL = 4096

    def __init__(self, command_line: str) -> None:
        # ssh(1) runs ProxyCommand with the user's shell as `exec COMMAND` (openssh-portable:
        # sshconnect.c, ssh_proxy_connect), so `~`, `$VARS`, redirections and pipes work;
        # paramiko splits it with shlex and runs the first word, which breaks all of those.
        shell = os.environ.get("SHELL") or "/bin/sh"
        # Started with SIGINT and SIGHUP ignored, which exec keeps and ssh(1) then leaves
        # ignored (openssh-portable: clientloop.c, client_loop installs its handler only where
        # the signal was not ignored). The terminal's Ctrl-C (or its hang-up) reaches our whole
        # process group: the proxy died at once, its connection with it, and the kill of the
        # step's remote tree could not be sent, so the remote command ran on. Its life is ours
        # still: close() ends it (SIGTERM), and our end of its stdin closes when we exit.
        # Not its own process group: a ProxyCommand's ssh(1) asks for a bastion's password on
        # the terminal, which a background group cannot read (SIGTTIN).
        self.command_line = command_line
        self.cmd = ["/bin/sh", "-c", 'trap "" INT HUP; exec "$0" -c "$1"', shell, f"exec {command_line}"]
        self.process = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.timeout = None
        self._stderr_tail = b""
        self._saw_eof = False
        self._stopped_by_us = False
        """close() ended the command while it still served the connection (its stdout open)."""
        self._drain = threading.Thread(target=self._drain_stderr, name="proxycommand-stderr", daemon=True)
        self._drain.start()

    def _drain_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        for chunk in iter(lambda: stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096), b""):
            self._stderr_tail = (self._stderr_tail + chunk)[-self._STDERR_TAIL :]

    def recv(self, size: int) -> bytes:
        start = time.monotonic()
        while True:
            wait = None if self.timeout is None else max(0.0, self.timeout - (time.monotonic() - start))
            if wait_readable(self.process.stdout, wait):
                try:
                    data = os.read(self.process.stdout.fileno(), size)  # b"" at EOF: the command ended
                except OSError as exc:
                    raise paramiko.ProxyCommandFailure(" ".join(self.cmd), exc.strerror) from None
                self._saw_eof = self._saw_eof or not data
                return data
            if self.timeout is not None and time.monotonic() - start >= self.timeout:
                raise socket.timeout()

    def close(self) -> None:
        if self.process.poll() is None:
            # Before its EOF the command was still relaying: what it does on our SIGTERM
            # (`ssh -W` exits 0 or 255, "Killed by signal 15.") is no failure of its own.
            # Never unset: a second close (paramiko's transport thread closes the socket too,
            # as the banner bound's close runs) after our SIGTERM made the command end its
            # stdout read as a command that had ended by itself ("exited with code 0").
            self._stopped_by_us = self._stopped_by_us or not self._saw_eof
            self.process.terminate()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def ended(self) -> str | None:
        """Why the command is gone (exit code and last stderr line), or None while it runs."""
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return None
        if self._stopped_by_us:
            # paramiko closes the socket when a handshake stalls (paramiko/transport.py, run:
            # sock.close() on the way out of a banner or key-exchange timeout): a hung host
            # behind `nc %h %p` or `ssh -W %h:%p bastion` read as "ProxyCommand ... exited with
            # code -15" (or 0, as ssh(1) exits on SIGTERM), the working bastion blamed.
            return None
        # The process is gone but its last words may still be in the pipe: let the drain read
        # them (it ends at EOF; bounded, a grandchild may hold stderr open).
        self._drain.join(timeout=1.0)
        said = _reason_line(self._stderr_tail.decode("utf-8", "replace"))
        return f"exited with code {code}" + (f": {said}" if said else "")

    def unread_output(self) -> str:
        """What the ended command wrote on stdout that the handshake never read (its first 4
        KiB). paramiko sends our version line before it reads the banner: to a command that has
        exited that write fails (a broken pipe), and what it printed stays in the pipe."""
        stdout = self.process.stdout
        if stdout is None or stdout.closed or not wait_readable(stdout, 0):
            return ""
        try:
            return os.read(stdout.fileno(), 4096).decode("utf-8", "replace")
        except OSError:
            return ""

    def turned_away_at(self) -> tuple[str, int] | None:
        """The (address, port) of the sshd that hung up on the command's own ssh(1) before its
        banner, where the command is one (`ssh -W %h:%p bastion`): what a bastion's sshd past
        MaxStartups does (ssh_startups). None for any other ending."""
        said = self._stderr_tail.decode("utf-8", "replace")
        if self.process.returncode != 255 or _BEFORE_BANNER not in said:
            return None
        where = _HUNG_UP_BY.search(said)
        return (where.group(1), int(where.group(2))) if where else (self.cmd[-1], 0)

    def refused_forwarding(self) -> bool:
        """Whether the command was a bastion's `ssh -W` whose sshd refused to forward (its
        channel open failed "administratively prohibited": AllowTcpForwarding no, a PermitOpen
        list, a `restrict` key)."""
        return _PROHIBITED in self._stderr_tail.decode("utf-8", "replace")


# ssh(1)'s last words when the bastion would not open the `-W` channel (openssh-portable: ssh.c,
# ssh_stdio_confirm); the reason is the line before it, channels.c's "channel N: open failed: ...".
_STDIO_FORWARDING_FAILED = "stdio forwarding failed"
_PROHIBITED = "administratively prohibited"


# ssh(1)'s words when the server hangs up before its banner: "kex_exchange_identification:
# Connection closed by remote host" (or "read: Connection reset by peer"), then "Connection
# closed by ADDRESS port PORT" (openssh-portable: kex.c, kex_exchange_identification;
# sshconnect.c; OpenSSH 8.2+, "ssh_exchange_identification" before).
_BEFORE_BANNER = "exchange_identification"
_HUNG_UP_BY = re.compile(r"Connection (?:closed|reset) by (\S+) port (\d+)")
_TURNED_AWAY_HINT = ("the bastion the ProxyCommand's ssh goes through turned it away before the handshake: too many "
                     "connections at once (its sshd's MaxStartups; lower --forks), or TCP wrappers, fail2ban or a firewall")


class ProxyTurnedAway(HostUnreachableError):
    """A ProxyCommand's own ssh(1) was turned away before its server's banner; `endpoint` is
    that server (a bastion), whose logins then take turns as a direct host's do. Its arguments
    after the message are optional: copy.copy (ssh_connect, _said_with_name) calls cls(message)."""

    def __init__(self, message: str, *, hint: str | None = None, endpoint: tuple[str, int] = ("", 0)) -> None:
        super().__init__(message, hint=hint)
        self.endpoint = endpoint


class ProxySaidNothing(HostUnreachableError):
    """A quiet ProxyCommand (`ssh ... -q ...`) whose ssh(1) exited 255 saying nothing: `loud` is
    the command without -q, tried once more in its place. -q silences even the fatal reason, so
    a bastion past its MaxStartups (which ProxyTurnedAway retries) could not be told from one
    that refused the login; without -q, the command either gets through or says which."""

    def __init__(self, message: str, *, hint: str | None = None, loud: str = "") -> None:
        super().__init__(message, hint=hint)
        self.loud = loud


def _without_quiet(command_line: str) -> str | None:
    """A ProxyCommand `ssh ... -q ...` (Ansible's docs write `ssh -W %h:%p -q bastion`) without
    its -q, which silences even the fatal reason ("Permission denied", "Host key verification
    failed"): run by hand as written, it exits 255 saying nothing. None for any other command.

    The -q words are cut from the line as written: a requoted word list (shlex.join) quoted
    `~/.ssh/bastion_key`, which the shell then no longer expands, and that command failed for
    a key it could not find."""
    try:
        words = shlex.split(command_line)
    except ValueError:
        return None
    if not words or os.path.basename(words[0]) != "ssh" or "-q" not in words:
        return None
    if any(char in command_line for char in "<>|;&$`"):
        return None  # shell syntax (`2>/dev/null`, a pipe) that cutting words could break
    loud = re.sub(r"(?:^|\s+)-q(?=\s|$)", "", command_line).strip()
    return loud if "-q" not in shlex.split(loud) else None


def _reason_line(stderr: str) -> str | None:
    """The line of a ProxyCommand's stderr that says why it ended: its last, except after
    `ssh -W`'s "stdio forwarding failed", which says only that: the reason ("channel 0: open
    failed: administratively prohibited", "...: connect failed: Connection refused") is the
    line before, and the message quoted the vague one alone."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    if not lines:
        return None
    if lines[-1] == _STDIO_FORWARDING_FAILED and len(lines) > 1 and "open failed" in lines[-2]:
        return f"{lines[-2]} ({lines[-1]})"
    return lines[-1]


_EXIT_AFTER_EOF_S = 2.0


def failed_proxy(sock: object) -> str | None:
    """Why a connection's ProxyCommand failed under a live session, else None: it exited
    non-zero, or said why it ended (a cloudflared or SSM tunnel that closed; a bastion's `ssh -W`
    whose own connection dropped prints "Connection to BASTION closed by remote host.", and exits
    255 or, as the race of its two EOFs goes, 0). A proxy that ended silently with 0 passed the
    target's EOF on (nc, `ssh -W` when the target goes down): the host is the cause then."""
    if not isinstance(sock, _ProxyCommand):
        return None
    try:
        # Its stdout's EOF, which ended the session, can come a moment before its exit.
        sock.process.wait(timeout=_EXIT_AFTER_EOF_S)
    except subprocess.TimeoutExpired:
        return None
    why = sock.ended()
    said = sock._stderr_tail.strip()  # complete: ended() waited for the drain to reach EOF
    return why if why is not None and (sock.process.returncode != 0 or said) else None


def wait_readable(source: object, timeout_s: float | None) -> bool:
    """Wait until `source` (anything with fileno()) is readable, or timeout_s passes.

    poll, not select: select cannot watch a descriptor numbered FD_SETSIZE (1024) or above and
    raises ValueError, which a big fleet with a high --forks reaches where the file limit is
    raised (containers often allow 1048576).
    """
    poller = select.poll()
    poller.register(source, select.POLLIN | select.POLLHUP | select.POLLERR)  # type: ignore[arg-type]
    return bool(poller.poll(None if timeout_s is None else max(0, math.ceil(timeout_s * 1000))))


def _raise_if_proxy_ended(target: SSHTarget, sock: object, printed: tuple[str, ...] = ()) -> None:
    """A ProxyCommand that exited is the cause, whatever the handshake said about it. `printed`:
    the lines it wrote before it ended where an SSH banner belongs (the transport's pre_banner),
    said with the exit: a bastion's ForceCommand or an HTTP proxy that refused says why on
    stdout only ("HTTP/1.1 403 Forbidden", "This account only allows ProxyJump"), and the
    error read "exited with code 0", with nothing to go on."""
    if isinstance(sock, _ProxyCommand):
        why = sock.ended()
        if why is not None:
            lines = [line.strip() for line in (*printed, *sock.unread_output().splitlines())
                     if line.strip() and not line.startswith("SSH-")]
            if lines:
                why += f"; it printed {lines[0][:120]!r} instead of an SSH banner"
            hint = "run the ProxyCommand by hand to see why it cannot reach the host"
            if sock.refused_forwarding():
                # As ssh_jump says for a ProxyJump hop that refuses the same channel.
                hint = ("the bastion the ProxyCommand goes through refuses to forward connections there: its sshd_config "
                        "forbids it (AllowTcpForwarding no, DisableForwarding yes, a PermitOpen list), or your key's "
                        "authorized_keys line does (restrict, permitopen=): ask for forwarding to be allowed, or use another bastion")
            message = f"{target.alias}: ProxyCommand {target.proxy_command!r} {why}"
            loud = _without_quiet(target.proxy_command or "")
            if loud is not None and not sock._stderr_tail.strip():
                hint = f"it said nothing: -q keeps its ssh(1) from saying why; run it by hand without -q: `{loud}`"
                if sock.command_line != loud and sock.process.returncode == 255:
                    raise ProxySaidNothing(message, hint=hint, loud=loud) from None
            elif loud is not None and sock.command_line == loud and not sock.refused_forwarding():
                hint = ("-q keeps its ssh(1) from saying why, so it was tried once more without -q, which said the above; "
                        f"run it by hand without -q: `{loud}`")
            turned_away = sock.turned_away_at()
            if turned_away is not None:
                raise ProxyTurnedAway(message, hint=_TURNED_AWAY_HINT, endpoint=turned_away) from None
            raise HostUnreachableError(message, hint=hint) from None
