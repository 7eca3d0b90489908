"""The transport interface: how the runner reaches a host.

Modelled on httpx's BaseTransport: one small interface (run a command, put and get a file,
close); timeouts, retries, templating and records live in the runner, so a new transport
(local, ssh, a container exec) is one small file.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from pathlib import Path

from spec_debug.runner.output import StreamCapture


def literal_pattern(text: str) -> str:
    """`text` as a POSIX basic regular expression that matches it literally, its first
    character other than `^` in brackets (which the pattern itself then does not match).
    A bracket takes `\\`, `.`, `*`, `[` and `$` literally (POSIX regex(7)); `^` is literal
    past the pattern's start, `\\^` at it; every other printable character is itself."""
    pattern: list[str] = []
    bracketed = False
    for index, char in enumerate(text):
        if not bracketed and char != "^" or char in "\\.*[$":
            pattern.append(f"[{char}]")
            bracketed = True
        elif char == "^" and index == 0:
            pattern.append("\\^")
        else:
            pattern.append(char)
    return "".join(pattern)


def forms_in_check(secret: str) -> tuple[str, ...]:
    """`secret` as a LeftRunning.check may hold it (ssh.left_running_check): inside the grep
    pattern (`.`, `*`, `[`, `$`, `\\` in brackets), and with its `'` quoted once (shlex.quote)
    or twice (the exec request's form, then shlex.quote). Masked like the value itself: the
    plain value missed `tok[.]en`, and a secret of the command's first line stood in the
    record's check, message and SD002 evidence."""
    pattern = literal_pattern("x" + secret)[3:]  # past the line's first character, bracketed
    once = pattern.replace("'", "'\"'\"'")
    return tuple(dict.fromkeys((pattern, once, once.replace("'", "'\"'\"'"))))


@dataclass(frozen=True)
class LeftRunning:
    """A command whose kill could not be sent (a timeout or Ctrl-C before the wrapper reported
    its pid, ssh.py; or the connection dropped at the timeout): nothing was killed, and the
    host may still run it. words() is for the no-pid case."""

    host: str
    check: str
    """One line to paste on the host that lists the command's processes (ssh.left_running_check)."""
    waited_s: float
    """Seconds from the command's start until it was given up."""
    why: str | None = None
    """Why the kill did not reach the command where its pid had come (the kill's connection
    failed after Ctrl-C); None: the pid never came."""

    def words(self) -> str:
        """What happened and how to find the command on the host, for the step's message (in
        place of attempt.killed_words' "process tree killed")."""
        why = self.why or (
            f"the step's shell had not reported its pid {self.waited_s:.1f} s after the start (its rc files or a loaded host held it)"
        )
        return (
            f"not killed: {why}, so the command may still be running on {self.host}; check there with "
            f"`{self.check}` and kill it before running the step again"
        )


@dataclass(frozen=True)
class CommandOutcome:
    """What happened to one remote command. Output lives in the StreamCaptures."""

    exit_code: int | None
    duration_s: float
    timed_out: bool = False
    signal: int | None = None
    """Set when the process died from a signal (exit_code is then None or 128+N)."""
    signal_name: str | None = None
    """The name sshd gave a signal it has no name of its own for ("SIG@openssh.com"), which
    killed the process: signal is then None and exit_code 255, as ssh(1) exits."""
    left_running: LeftRunning | None = None
    """Set on a timed-out or interrupted command whose kill could not be sent, the host maybe
    still running it. None: the kill went out (or nothing was left)."""


class Transport(abc.ABC):
    """A connection to one host. Instances are used by one runner thread at a time."""

    host: str

    @abc.abstractmethod
    def run(
        self,
        command: str,
        *,
        stdout: StreamCapture,
        stderr: StreamCapture,
        timeout_s: float | None = None,
        env: dict[str, str] | None = None,
    ) -> CommandOutcome:
        """Run a shell command (``sh -c`` semantics) and stream its output into the captures.

        A timeout must kill the whole process tree on the host, not only the local end.
        Raises TransportError when the host cannot be reached or the connection drops.
        """

    @abc.abstractmethod
    def put(self, local_path: Path, remote_path: str) -> None:
        """Copy a local file to the host (creating parent directories)."""

    @abc.abstractmethod
    def get(self, remote_path: str, local_path: Path, max_bytes: int | None = None) -> None:
        """Copy a file from the host to a local path.

        With max_bytes: a regular file whose size (stat on the host, before copying) is larger
        raises fetch_limit.FetchTooLarge and nothing is copied; one that holds more than
        max_bytes all the same (it grew, or it is a /proc file that stats as 0 bytes) is copied
        up to max_bytes and raises fetch_limit.FetchCut, the cut copy at local_path.

        Inside a fetch step with a timeout (fetch_deadline.current_deadline() is set), a copy
        still running at the deadline is given up, wherever it waits, and raises
        fetch_deadline.FetchTimedOut, leaving nothing at local_path.
        """

    def interrupt(self) -> None:  # noqa: B027 - optional
        """Kill whatever command is running right now (its whole process tree on the host).

        Called from another thread when the user presses Ctrl-C; the interrupted run() then
        returns (or raises TransportError) promptly.
        """

    def close(self) -> None:  # noqa: B027 - optional for transports without state
        """Release the connection."""

    def connect_warnings(self) -> list[str]:
        """What the connection let pass with a warning (a changed host key accepted under
        StrictHostKeyChecking no), for the host's record: the terminal is not the record."""
        return []

    def __enter__(self) -> "Transport":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
