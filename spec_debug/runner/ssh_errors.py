"""The ways an SSH host fails, each a TransportError with a one-line cause.

The runner catches TransportError per host, marks the host `error` and carries on with the
others (exit code 3); these subclasses let tests and reports tell the causes apart.
HostKeyError and AuthenticationError live in spec_debug.errors.
"""

from __future__ import annotations

from spec_debug.errors import TransportError


class HostUnreachableError(TransportError):
    """DNS failure, connection refused, no route, or a TCP connect that timed out."""


class HandshakeError(TransportError):
    """TCP connected but SSH did not start: no banner (a stalled host), or negotiation failed."""


class ConnectionLostError(TransportError):
    """The connection dropped while a step was running or between steps."""
