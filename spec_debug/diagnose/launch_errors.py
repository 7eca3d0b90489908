"""The error of the launch audit, in a module of its own: the argv reader (launch.py) and the
paste readers it calls (launch_pastes.py) both raise it."""

from __future__ import annotations

from spec_debug.errors import UsageError


class LaunchParseError(UsageError):
    """A launch command that is not an SGLang/vLLM server command, or has a malformed flag."""
