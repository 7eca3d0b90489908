"""The deadline a fetch step's `timeout` sets on its copies, locally and over SSH.

A `run` step's timeout bounds its command; a fetch step's bounded only the listing of its
patterns, and each copy then waited up to 120 s without a byte (ssh_sftp._STALL_S,
local._COPY_STALL_S) before giving up: a fetch from a hung NFS or FUSE mount with `timeout: 3`
ran two minutes, and a file that trickles (a FIFO, a log written line by line) never ended.

The engine opens `fetch_deadline(step.timeout)` around the whole step; a transport's get()
reads it with `current_deadline()` in the same thread (each host's steps run in one thread), so the
Transport interface keeps its one `get` signature. A copy still running at the deadline is
given up and raises FetchTimedOut; the engine records the step as timed out, keeping the
files copied before it, and the first bytes of the one given up (keep_partial, mark_given_up).
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator


@dataclass(frozen=True)
class FetchDeadline:
    """When the fetch step in progress must end, and the `timeout` that set it (for messages)."""

    at: float
    """time.monotonic() value."""
    timeout_s: float

    def left(self) -> float:
        """Seconds left until the deadline, never below 0."""
        return max(0.0, self.at - time.monotonic())

    def passed(self) -> bool:
        return time.monotonic() >= self.at


class FetchTimedOut(Exception):
    """A copy was given up at the fetch step's deadline. Not an OSError: the transports' error
    mapping (ssh_sftp._errors) must pass it on unchanged."""

    def __init__(self, what: str, timeout_s: float) -> None:
        super().__init__(f"{what}: not copied whole: the step's timeout of {timeout_s:g} s ran out during its copy")
        self.what = what
        self.timeout_s = timeout_s


class ListingTimedOut(ValueError):
    """A fetch pattern's listing on the host ran past its time (the step's deadline, or
    engine.GLOB_TIMEOUT_S in a step without a timeout): a folder on a hung mount."""


def timed_out_words(timeout_s: float, where: str, not_reached: list[str], copied: int) -> str:
    """The timed-out fetch step's message: where the time ran out, what was not reached, and
    that the files copied before are kept (listed in the step's artifacts)."""
    said = f"timed out after {timeout_s:g} s {where}"
    if not_reached:
        said += f"; {not_reached_words(not_reached)}"
    if copied:
        said += f"; the {copied} file{'s' if copied > 1 else ''} copied before {'are' if copied > 1 else 'is'} kept"
    return said


def not_reached_words(not_reached: list[str]) -> str:
    """The sources or files a fetch never began, at its timeout or the run's stop: the first
    five, and how many more."""
    more = f" and {len(not_reached) - 5} more" if len(not_reached) > 5 else ""
    return f"not reached: {', '.join(not_reached[:5])}{more}"


def keep_partial(partial: Path, local_path: Path) -> None:
    """Keep the bytes a copy given up at the deadline had written, as local_path (the engine then
    marks the cut: mark_given_up). For the usual fetch, a server log or a dmesg dump, its first
    lines are the evidence; a copy that got no byte leaves nothing behind."""
    try:
        if partial.stat().st_size > 0:
            os.replace(partial, local_path)
    except OSError:
        pass  # nothing written, or it cannot be kept: the step says the copy was given up either way


def given_up_line(kept: int, timeout_s: float, what: str) -> bytes:
    """What a copy given up at the deadline ends with, on a line of its own, as an artifact cut at
    the artifact limit says where its middle was dropped (spill.dropped_line): a reader of the
    file alone must not take it for the whole log."""
    return (
        f"\n... [spec-debug: copy given up here: the fetch step's timeout of {timeout_s:g} s ran out; "
        f"this file keeps the first {kept} bytes of {what}] ...\n"
    ).encode()


def mark_given_up(local_path: Path, timeout_s: float, what: str) -> int | None:
    """Append given_up_line to a copy that keep_partial kept: the bytes of the host's file it
    holds. None when it cannot be marked (a full disk): the copy is removed then, since unmarked
    it would read as the whole file."""
    try:
        kept = local_path.stat().st_size
        with open(local_path, "ab") as copy:
            copy.write(given_up_line(kept, timeout_s, what))
        return kept
    except OSError:
        local_path.unlink(missing_ok=True)
        return None


_current: ContextVar[FetchDeadline | None] = ContextVar("spec_debug_fetch_deadline", default=None)


@contextmanager
def fetch_deadline(timeout_s: float | None) -> Iterator[FetchDeadline | None]:
    """Set the deadline of the copies made inside (None: no deadline, the stall limits only)."""
    deadline = None if timeout_s is None else FetchDeadline(time.monotonic() + timeout_s, timeout_s)
    token = _current.set(deadline)
    try:
        yield deadline
    finally:
        _current.reset(token)


def current_deadline() -> FetchDeadline | None:
    """The deadline of the fetch step running in this thread, if it set a timeout."""
    return _current.get()


@contextmanager
def expiry_watch(on_expiry: Callable[[], None]) -> Iterator[threading.Event]:
    """Call on_expiry (from a timer thread) if the current deadline passes inside the block.

    For copies that wait in a library call with no deadline of its own (a paramiko SFTP read):
    on_expiry closes what they wait on. The event yielded says whether it fired, so the copy's
    failure can be told from a real one.
    """
    fired = threading.Event()
    deadline = current_deadline()
    if deadline is None:
        yield fired
        return

    def expire() -> None:
        fired.set()
        on_expiry()

    timer = threading.Timer(deadline.left(), expire)
    timer.daemon = True
    timer.name = "spec-debug-fetch-deadline"
    timer.start()
    try:
        yield fired
    finally:
        timer.cancel()
        # cancel() does not stop an on_expiry already running: wait for it, so that it acts on
        # this block's copy and not on whatever the thread does next (the next step's copy).
        timer.join()
