"""One exception type per kind of failure.

The CLI turns each into one clear line (what, where, how to fix) and an exit code that
follows linters: 2 for usage or playbook errors, 3 for an unreachable host or an aborted run.
"""

from __future__ import annotations


class SpecDebugError(Exception):
    """Base class: every error the CLI can explain in one line."""

    exit_code = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"

    def __reduce__(self):
        # Pickled whole (a worker process raises it in the parent): an exception pickles its
        # args only, and the subclasses' constructors take other arguments (file, line, hint).
        return _rebuilt, (type(self), self.message, self.__dict__)


def _rebuilt(cls: type, message: str, state: dict) -> SpecDebugError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class UsageError(SpecDebugError):
    """Bad command-line input (an option, a --var, a missing file)."""


class PlaybookError(SpecDebugError):
    """A playbook that does not load or validate: carries file, line and column."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        key_path: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.key_path = key_path
        self.bare_message = message  # without file:line:column and key path (`playbooks validate --format json`)
        where = path or "<playbook>"
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        located = f"{where}: {message}"
        if key_path:
            located += f" (at {key_path})"
        super().__init__(located, hint=hint)


class TemplateError(SpecDebugError):
    """A playbook template that fails to render (e.g. an undefined variable)."""


class TransportError(SpecDebugError):
    """A host could not be reached or the connection broke."""

    exit_code = 3
    step_only = False
    """True when only the step's channel was lost and the connection still serves the next
    steps (sshd's ChannelTimeout closed a quiet step): the step errors, the host goes on."""


class HostKeyError(TransportError):
    """The host key is unknown or changed; never accepted silently."""


class AuthenticationError(TransportError):
    """No key or password the host accepts."""


class RunAborted(SpecDebugError):
    """The run was interrupted (Ctrl-C) or stopped by a step with on_failure: stop."""

    exit_code = 3


class SignalInterrupt(KeyboardInterrupt):
    """SIGTERM or SIGHUP, turned into the Ctrl-C path (the run stops, the record is written)
    with the reason the record should give."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def stop_reason(stop: BaseException) -> str:
    """What a stop was, in the words the record and the console give: a SignalInterrupt's
    reason (``terminated (SIGTERM)``), else a plain Ctrl-C's."""
    return getattr(stop, "reason", "interrupted (Ctrl-C)")
