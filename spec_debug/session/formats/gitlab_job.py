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
"""Events of an ``after_script`` held back for the job's last line at most (see
:func:`with_job_status`); a longer one is let through, its main command left with no status."""


def with_job_status(events: Iterator[Event]) -> Iterator[Event]:
    """``events``, where the job's status reaches the script line it belongs to across an
    ``after_script``: the runner prints ``ERROR: Job failed: exit code N`` after after_script's
    own lines, so the failed script line (the one whose output holds ``Running after_script``)
    had no status and read as a success. Its result is held with the events after it until the
    job's last line; only a log with an after_script is held, and never more than
    :data:`HELD_EVENTS`."""
    held: list[Event] = []
    main: Event | None = None
    for ev in events:
        if ev.kind != "tool_result" or not ev.text:
            if held:
                held.append(ev)
            else:
                yield ev
            continue
        if main is None and not held and ev.exit_code is None and AFTER_SCRIPT in ev.text:
            main = ev
            held.append(ev)
            continue
        if not held:
            yield ev
            continue
        held.append(ev)
        code = job_status(ev.text)
        if code is not None and main is not None:
            main.exit_code, main.is_error = code, code != 0
        if code is not None or len(held) >= HELD_EVENTS:
            yield from held
            held.clear()
    yield from held
