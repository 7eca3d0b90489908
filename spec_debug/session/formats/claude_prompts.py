"""The Markdown a Claude Code session is exported to by the ``claude-prompts`` CLI
(``claude-prompts --full <project>``), committed beside many projects (``claude-prompts/*-full.md``):

    # Claude Session Export

    ## Session Information

    - **Session ID**: `agent-bfa52189`
    - **Export Mode**: Full Conversation
    - **Project Path**: `/home/chris/dev/projects/codex/brain_explore`
    ...
    ## Conversation

    ### Assistant
    > 11/30/2025, 11:38:20 PM

    [
      {
        "type": "tool_use",
        "id": "toolu_01UB1BhDonPDrPscq85nfgoj",
        "name": "Bash",
        "input": {"command": "python scripts/extract_single.py ...", ...}
      }
    ]

    ---

Each message is a ``### User`` or ``### Assistant`` heading, its time on the next line (the
browser-style local ``M/D/YYYY, h:mm:ss AM``, no zone), then the session line's ``message.content``:
a prompt as its text, any other content as the JSON of its blocks (``text``, ``tool_use``,
``tool_result`` with ``is_error``), and ``---`` (real exports, e.g. goodsch/brain_explore
``claude-prompts/agent-bfa52189-untitled-full.md``). The messages are read as the session lines
they were exported from, by the Claude Code reader. Read as a plain-text log, the whole export was
prose: no prompt, no command, no error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

HEADER = "# Claude Session Export"
_TURN = re.compile(r"^### (User|Assistant)\s*$")
_STAMP = re.compile(r"^> (\d{1,4})([./-])\s?(\d{1,2})\2\s?(\d{1,4})\.?,?\s+(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?"
                    r"\s*(?:([AaPp])\.?\s?[Mm]\.?)?\s*$")
"""The message's time as ``new Date(…).toLocaleString()`` wrote it, in the exporting machine's
locale (developerisnow/claude-code-exporter ``lib/index.js`` ``formatConversationMessage``):
``11/30/2025, 11:38:20 PM`` (en-US), ``30/11/2025, 23:38:20`` (en-GB, fr-FR: day first, no AM/PM),
``30.11.2025, 23:38:20`` (de-DE, ru-RU), ``2025-11-30 23:38:20`` (sv-SE), ``2025/11/30 23:38:20``
(ja-JP, zh-CN)."""
_TIME_LINE = re.compile(r"^> (?:.*\d[:.]\d\d|Invalid Date\s*$)")
"""The line under a heading that is its time, in a locale :data:`_STAMP` does not read (or an
unreadable time, ``Invalid Date``): dropped, not taken for the message's text."""
_INFO = re.compile(r"^- \*\*(Session ID|Project Path)\*\*: `([^`\n]+)`\s*$")


def looks_like(head: list[str]) -> bool:
    """The export's title on its first line, and its information list under it."""
    lines = [line.strip() for line in head if line.strip()]
    return bool(lines) and lines[0] == HEADER and any(line.startswith("- **Export Mode**:") for line in lines[1:12])


def read_lines(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    return claude_code.recorded_statuses(
        claude_code.link_records(claude_code.parse_records(_records(lines, cursor, stats), cursor, stats), cursor))


def _records(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor,
             stats: ReadStats) -> Iterator[tuple[int, int, dict]]:
    """``(index, line, record)``: each message as the Claude Code line it came from."""
    info: dict[str, str] = {}
    index = 0
    role: str | None = None
    turn_line = 0
    stamp: str | None = None
    seen_time = False
    body: list[str] = []

    def message() -> dict:
        record = {"type": role, "uuid": f"export-{index}", "message": {"role": role, "content": _content(body)}}
        if stamp:
            record["timestamp"] = stamp
        if "Session ID" in info:
            record["sessionId"] = info["Session ID"]
        if "Project Path" in info:
            record["cwd"] = info["Project Path"]
        return record

    for lineno, line, _ in lines:
        if (turn := _TURN.match(line)) is not None:
            if role is not None:
                yield index, turn_line, message()
                index += 1
                cursor.records = index
            role, turn_line, stamp, body, seen_time = turn.group(1).lower(), lineno, None, [], False
        elif role is None:
            if (found := _INFO.match(line)) is not None:
                info[found.group(1)] = found.group(2)
        elif stamp is None and not body and not seen_time and _TIME_LINE.match(line):
            # (its time in another locale than en-US was the message's text: a message of blocks
            # read as a prompt of JSON, its calls and results lost)
            seen_time = True
            found = _STAMP.match(line)
            stamp = _iso(found) if found is not None else None
        else:
            body.append(line)
    if role is not None:
        yield index, turn_line, message()
        cursor.records = index + 1


def _content(body: list[str]) -> str | list:
    """A message's content: the JSON of its blocks, else its text (a fence around it taken off)."""
    while body and body[-1].strip() in ("", "---"):
        body.pop()
    text = "\n".join(body).strip("\n")
    if text.startswith("["):
        try:
            blocks = json.loads(text)
        except (ValueError, RecursionError):
            blocks = None
        if isinstance(blocks, list) and all(isinstance(b, dict) for b in blocks):
            return blocks
    lines = text.split("\n")
    if len(lines) >= 2 and lines[0].startswith("```") and lines[-1].strip() == "```":
        text = "\n".join(lines[1:-1])
    return text


def _iso(found: re.Match) -> str | None:
    """``11/30/2025, 11:38:19 PM`` as ``2025-11-30T23:38:19`` (local time, as exported); None for a
    date that is none (``2025-30-11`` was written for en-GB's ``30/11/2025``)."""
    first, sep, middle, last = found.group(1), found.group(2), int(found.group(3)), found.group(4)
    meridiem = found.group(8)
    if len(first) == 4 and len(last) <= 2:  # year first (sv-SE, ja-JP, zh-CN)
        year, month, day = int(first), middle, int(last)
    elif len(last) == 4 and len(first) <= 2:
        year = int(last)
        if sep == "/" and meridiem and not int(first) > 12:  # en-US: month first, a 12-hour clock
            month, day = int(first), middle
        elif sep == "/" and not meridiem and middle > 12:
            month, day = int(first), middle
        else:  # day first: en-GB, fr-FR (24 hours), de-DE, ru-RU (dotted)
            day, month = int(first), middle
    else:
        return None
    hour, minute, second = int(found.group(5)), int(found.group(6)), int(found.group(7) or 0)
    if meridiem:
        if hour > 12:
            return None
        hour = hour % 12 + (12 if meridiem in "Pp" else 0)
    try:
        return datetime(year, month, day, hour, minute, second).strftime("%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
