"""A GitHub Actions job log (the raw log a run's page offers, ``gh run view --log`` and
``--log-failed``): each line stamped ``2025-10-01T10:00:00.1234567Z``, ``gh`` putting the job and
the step before it, tab-separated. A ``run:`` step opens with its script between
``##[group]Run <first line>`` and ``##[endgroup]`` (the script's lines, then ``shell: /usr/bin/bash
-e {0}`` and its ``env:``), then its output; a step that failed ends with ``##[error]Process
completed with exit code N.`` A ``uses:`` step's group shows its ``with:`` inputs and no
``shell:``: no command of the log (the shapes published logs and the tools that read them
show, e.g. ``gh run view --log-failed`` quoted in CI notes). Read as a shell log
(:mod:`formats.text_log`): the stamp is the line's time, the step's script its command."""

from __future__ import annotations

import re
from collections.abc import Iterator

_STAMPED = re.compile(r"^\ufeff?(?:[^\t\n]*\t[^\t\n]*\t)?\ufeff?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) ?")
_MARKS = ("##[group]", "##[error]", "##[endgroup]")
GROUP_RUN = "##[group]Run "
END_GROUP = "##[endgroup]"
SHELL_LINE = "shell: "
_FAILED_STEP = re.compile(r"^##\[error\]Process completed with exit code (\d+)\.\s*$")
_ANNOTATION = re.compile(r"^##\[(?:error|warning|notice|debug)\]")


def looks_like(head: list[str]) -> bool:
    """Most of the first lines are stamped, and one is a group or error mark of the runner."""
    stamped = [_STAMPED.match(line) for line in head if line.strip()]
    if not stamped or sum(m is not None for m in stamped) * 2 < len(stamped):
        return False
    return any(m is not None and line[m.end():].startswith(_MARKS) for m, line in zip(stamped, head))


def unstamped(lines: Iterator[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """The lines without their stamp (and ``gh``'s job and step columns), the stamp as their time."""
    for lineno, line, timestamp in lines:
        m = _STAMPED.match(line)
        if m is None:
            yield lineno, line, timestamp  # a script's line printed with a newline of its own
        else:
            yield lineno, line[m.end():], m.group(1)


def failed_step(line: str) -> int | None:
    """The exit status a ``##[error]Process completed with exit code N.`` line gives."""
    m = _FAILED_STEP.match(line)
    return int(m.group(1)) if m else None


def annotation_text(line: str) -> str:
    """An ``##[error]``/``##[warning]`` annotation's message, without the mark."""
    m = _ANNOTATION.match(line)
    return line[m.end():] if m else line
