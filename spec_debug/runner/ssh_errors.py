"""The ways an SSH host fails, each a TransportError with a one-line cause.

The runner catches TransportError per host, marks the host `error` and carries on with the
others (exit code 3); these subclasses let tests and reports tell the causes apart.
HostKeyError and AuthenticationError live in spec_debug.errors.
"""

from __future__ import annotations

from spec_debug.errors import SpecDebugError, TransportError


class HostUnreachableError(TransportError):
    """DNS failure, connection refused, no route, or a TCP connect that timed out."""


class HandshakeError(TransportError):
    """TCP connected but SSH did not start: no banner (a stalled host), or negotiation failed."""


class ConnectionLostError(TransportError):
    """The connection dropped while a step was running or between steps."""


class RemoteShellError(TransportError):
    """The login succeeded but the account's shell never ran our command.

    A nologin or /bin/false shell, or an sshd ForceCommand, replaces every command with its
    own: each step would "fail" with the same canned output. The host is unusable, so it is
    an error of the host (SD005), not a failure of each step.
    """


class RemoteFileError(SpecDebugError, OSError):
    """A file copy the host refused while the connection stays up: no SFTP subsystem, a
    read-only or full remote disk, no permission. Only the step that needed the file fails
    (SD003); an OSError too, so callers that catch OSError from a transport still do."""


class CopyInterrupted(RemoteFileError, InterruptedError):
    """A file copy the run's stop (interrupt()) cut or kept from starting: nothing about the
    host. An InterruptedError, as a local copy's (local.py), so the fetch step says so in its
    own words, once (engine._fetch), not "<path>: <host>: copy of <path> stopped: ..."."""


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
