"""Shell history files: the commands an engineer typed, with the time each was run when the shell
kept it, and no output (:mod:`formats.text_log` hands them here).

- bash with ``HISTTIMEFORMAT`` set writes ``#<epoch seconds>`` before each entry, and an entry
  typed over several lines (``lithist``) keeps its lines until the next stamp (bash(1),
  HISTORY: "the history comment character followed immediately by a digit is interpreted as a
  timestamp for the following history entry");
- zsh with ``EXTENDED_HISTORY`` (oh-my-zsh sets it) writes ``: <start>:<elapsed>;<command>``,
  a command of several lines with a backslash before each line break (zshoptions(1),
  EXTENDED_HISTORY);
- a plain ``~/.bash_history`` or ``~/.zsh_history`` is one command a line.

The listing the ``history`` builtin prints in a terminal log is read here too
(:func:`listing_entries`): the commands it lists ran before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session.events import Event
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.shell_typing import MAX_TYPED_LINES

_BASH_STAMP = re.compile(r"^#(\d{9,11})\s*$")
_ZSH_ENTRY = re.compile(r"^: (\d{9,11}):(\d+);(.*)$")
_HISTORY_NAMES = frozenset({".bash_history", ".zsh_history", ".history", ".sh_history", "bash_history",
                            "zsh_history", ".histfile"})
_MAX_ENTRY_CHARS = 1 << 20
_LISTING = re.compile(r"^(?:history|fc -l)(?:\s+-?\w+)*\s*(?:\|\s*(?:grep|tail|head|less|more|cat)\b[^|;&<>]*)*$")
"""A command that prints the history list: ``history``, ``history 20``, ``history | grep sglang``,
``fc -l`` (bash(1), SHELL BUILTIN COMMANDS)."""
_LISTING_ENTRY = re.compile(r"^\s{0,8}(\d{1,7})\*?\s{1,4}(?:(\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?)\s+)?(\S.*)$")
"""An entry of the list: bash prints its number in five columns, a ``*`` when the entry was
edited, two spaces, then ``HISTTIMEFORMAT``'s time if set (``%F %T`` is the usual one) and the
command (bash ``builtins/history.def``, ``display_history``: ``"%5d%c %s%s"``); zsh's
``history -i`` puts ``yyyy-mm-dd hh:mm`` there."""
_CONTINUATION = re.compile(r"[ \t]*\\\n[ \t]*")


def looks_like(path: Path, head: list[str]) -> bool:
    """A history file, by its name or by its stamps (most of its first lines are bash's
    ``#<epoch>`` or zsh's ``: <epoch>:<n>;`` lines)."""
    if path.name in _HISTORY_NAMES:
        return True
    lines = [line for line in head if line.strip()]
    if len(lines) < 2:
        return False
    zsh = sum(1 for line in lines if line.startswith(": ") and _ZSH_ENTRY.match(line))
    bash = sum(1 for line in lines if line.startswith("#") and _BASH_STAMP.match(line))
    # zsh: nearly every line an entry (a few continue one); bash: the file opens with a stamp and
    # has one per entry, so at least a quarter of the lines are stamps (an entry of many lines
    # is rare).
    if zsh >= 2 and zsh * 10 >= len(lines) * 7 and _ZSH_ENTRY.match(lines[0]):
        return True
    return bash >= 2 and bash * 4 >= len(lines) and _BASH_STAMP.match(lines[0]) is not None


def read_lines(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor) -> Iterator[Event]:
    seq = cursor.seq_base
    for line, command, stamp in _entries(lines):
        yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="assistant", kind="tool_call",
                    block=0, file=cursor.file, line=line, tool_name="shell", call_id=f"history-{seq}",
                    command=command, text=command, timestamp=stamp)
        seq += 1
    cursor.records = seq - cursor.seq_base


def _entries(lines: Iterator[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """``(line, command, timestamp)`` of each entry."""
    start, parts, stamp = 0, [], None

    def entry() -> tuple[int, str, str | None] | None:
        command = "\n".join(parts).strip()
        if "\\\n" in command:  # a backslash-newline the user typed joins the lines (bash(1), QUOTING)
            command = _CONTINUATION.sub(" ", command)
        return (start, command[:_MAX_ENTRY_CHARS], stamp) if command else None

    continued = False
    for lineno, line, _ in lines:
        if continued and len(parts) < MAX_TYPED_LINES:  # zsh: the line break was in the command
            parts[-1] = parts[-1][:-1]
            parts.append(line)
            continued = line.endswith("\\")
            continue
        bash = _BASH_STAMP.match(line) if line.startswith("#") else None
        zsh = _ZSH_ENTRY.match(line) if line.startswith(": ") else None
        if bash or zsh or not stamp:
            if (done := entry()) is not None:
                yield done
            start, parts, stamp = lineno, [], None
        if bash:
            stamp = _epoch(bash.group(1))
            start = lineno + 1
            continue
        if zsh:
            stamp = _epoch(zsh.group(1))
            line = zsh.group(3)
            continued = line.endswith("\\")
        if len(parts) < MAX_TYPED_LINES:
            parts.append(line)  # bash: the next line of an entry typed over several (lithist)
    if (done := entry()) is not None:
        yield done


def is_listing(command: str) -> bool:
    """``command`` prints the shell's history list (its output is :func:`listing_entries`)."""
    return command[:2] in ("hi", "fc") and _LISTING.match(command) is not None


def listing_entries(output: list[str], listing: str) -> list[tuple[str, str | None]]:
    """``(command, timestamp)`` of each entry the history list in ``output`` shows, oldest first,
    but the listing's own entry (bash adds the command to the list before it runs it), and
    lines that are not entries (a ``grep`` separator, an error)."""
    entries = []
    for line in output:
        m = _LISTING_ENTRY.match(line)
        if m is None:
            continue
        command, stamp = m.group(3).rstrip()[:_MAX_ENTRY_CHARS], m.group(2)
        entries.append((command, stamp.replace(" ", "T") if stamp else None))
    if entries and entries[-1][0] == listing:
        entries.pop()
    return entries


def _epoch(text: str) -> str | None:
    try:
        return datetime.fromtimestamp(int(text), tz=timezone.utc).isoformat().replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None
