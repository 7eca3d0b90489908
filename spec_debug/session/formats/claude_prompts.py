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

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

HEADER = "# Claude Session Export"
_TURN = re.compile(r"^### (User|Assistant)\s*$")
_STAMP = re.compile(r"^> (\d{1,2})/(\d{1,2})/(\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AP]M))?\s*$")
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
            role, turn_line, stamp, body = turn.group(1).lower(), lineno, None, []
        elif role is None:
            if (found := _INFO.match(line)) is not None:
                info[found.group(1)] = found.group(2)
        elif stamp is None and not body and (found := _STAMP.match(line)) is not None:
            stamp = _iso(found)
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


def _iso(found: re.Match) -> str:
    """``11/30/2025, 11:38:19 PM`` as ``2025-11-30T23:38:19`` (local time, as exported)."""
    month, day, year, hour, minute = (int(found.group(i)) for i in range(1, 6))
    second = int(found.group(6) or 0)
    if found.group(7):
        hour = hour % 12 + (12 if found.group(7) == "PM" else 0)
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
