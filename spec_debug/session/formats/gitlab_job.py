"""A GitLab CI job log: the runner echoes each script line as ``$ cmd`` (read as a prompt by
:mod:`formats.text_log`), wraps stages in ``section_start:<time>:<name>`` / ``section_end``
marks (a carriage return and an erase after each, so the terminal shows only the title), and
ends a failed job with ``ERROR: Job failed: exit code N``: the status of the script line that
failed, the last one the job ran, unless ``after_script`` ran after it (``Running after_script``,
its own ``$`` lines; GitLab ignores how those end). The shapes gitlab-runner's logs show, as
published job logs and CI notes quote them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spec_debug.session.events import Event

_JOB_FAILED = re.compile(r"(?:^|\n)ERROR: Job failed: exit code (\d+)\s*\Z")
AFTER_SCRIPT = "Running after_script"


def job_status(output: str) -> int | None:
    """The status ``ERROR: Job failed: exit code N`` gives, where it ends ``output``."""
    tail = output[-2000:]
    if "Job failed: exit code" not in tail:
        return None
    m = _JOB_FAILED.search(tail)
    return int(m.group(1)) if m else None


HELD_EVENTS = 2000
HELD_CHARS = 4 * 1024 * 1024
"""Events (and characters of their texts) of an ``after_script`` held back for the job's last
line at most (see :func:`with_job_status`); a longer one is let through, its main command left
with no status."""


def with_job_status(events: Iterator[Event]) -> Iterator[Event]:
    """``events``, where the job's status reaches the script line it belongs to across an
    ``after_script``: the runner prints ``ERROR: Job failed: exit code N`` after after_script's
    own lines, so the failed script line (the one whose output holds ``Running after_script``)
    had no status and read as a success. Its result is held with the events after it until the
    job's last line; only a log with an after_script is held, and never more than
    :data:`HELD_EVENTS` events or :data:`HELD_CHARS` characters of text."""
    held: list[Event] = []
    chars = 0
    main: Event | None = None
    for ev in events:
        if not held:
            if ev.kind == "tool_result" and ev.exit_code is None and ev.text and main is None \
                    and _starts_after_script(ev.text):
                main = ev
                held.append(ev)
                chars = len(ev.text)
            else:
                yield ev
            continue
        held.append(ev)
        chars += len(ev.text or "")
        code = job_status(ev.text) if ev.kind == "tool_result" and ev.text else None
        if code is not None and main is not None:
            main.exit_code, main.is_error = code, code != 0
        if code is not None or len(held) >= HELD_EVENTS or chars >= HELD_CHARS:
            yield from held
            held.clear()
    yield from held


def _starts_after_script(output: str) -> bool:
    """``output`` holds the runner's ``Running after_script`` line (at a line's start)."""
    at = output.find(AFTER_SCRIPT)
    return at == 0 or (at > 0 and output[at - 1] == "\n")
