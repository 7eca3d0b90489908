"""The lines ``script(1)`` writes around a typescript: when it started and ended, the command it
ran (``script -c CMD``) and that command's exit status (:mod:`formats.text_log`).

util-linux ``term-utils/script.c`` (``log_start``, ``log_close``)::

    Script started on 2025-08-18 10:02:11+00:00 [TERM="xterm-256color" TTY="/dev/pts/3" COLUMNS="160" LINES="48"]
    Script started on 2026-10-09 16:38:31+00:00 [COMMAND="bash demo.sh" <not executed on terminal>]
    ...
    Script done on 2025-08-18 10:03:40+00:00 [COMMAND_EXIT_CODE="1"]

Releases before 2.35 wrote the time alone, ``Script started on 2020-02-07 12:51:20-0500``, and
older ones the locale's ``%c`` (``Mon 18 Aug 2025 10:02:11 AM UTC``); BSD/macOS ``script``
writes ``Script started on Mon Aug 18 10:02:11 2025``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

_MARK = re.compile(r"^Script (started|done) on (.+?)(?: \[(.*)\])?\s*$")
_COMMAND = re.compile(r'COMMAND="(.*?)"(?= TERM=| TTY=| COLUMNS=| <|$)')
_EXIT = re.compile(r'^COMMAND_EXIT_CODE="(\d+)"$')
_LOCALE_TIMES = ("%a %d %b %Y %I:%M:%S %p %Z", "%a %d %b %Y %H:%M:%S %Z", "%a %b %d %H:%M:%S %Y",
                 "%a %b %d %H:%M:%S %Z %Y", "%a %d %b %Y %I:%M:%S %p", "%a %d %b %Y %H:%M:%S")


@dataclass(frozen=True)
class ScriptMark:
    started: bool
    """The opening line (False: the closing one)."""
    timestamp: str | None
    """ISO 8601; UTC (``Z``) when the line gives its offset."""
    command: str | None = None
    """What ``script -c`` ran (None: an interactive shell)."""
    exit_code: int | None = None


def parse(line: str) -> ScriptMark | None:
    """The mark ``line`` is, or None (callers test ``line.startswith("Script ")`` first)."""
    m = _MARK.match(line)
    if m is None:
        return None
    started, when, inside = m.group(1) == "started", m.group(2).strip(), m.group(3) or ""
    command = exit_code = None
    if started:
        c = _COMMAND.search(inside)
        command = c.group(1).strip() or None if c else None
    else:
        e = _EXIT.match(inside.strip())
        exit_code = int(e.group(1)) if e else None
    return ScriptMark(started, _timestamp(when), command, exit_code)


def _timestamp(text: str) -> str | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
        for form in _LOCALE_TIMES:
            try:
                moment = datetime.strptime(text, form)
                break
            except ValueError:
                continue
        if moment is None:
            return None
    if moment.tzinfo is None:
        return moment.isoformat(timespec="seconds")  # local time, as Aider's banner
    try:
        moment = moment.astimezone(timezone.utc)
    except OverflowError:  # "9999-12-31 23:59:59-01:00" is in year 10000 in UTC
        return None
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")
