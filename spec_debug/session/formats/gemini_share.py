"""The Markdown Gemini CLI's ``/chat share FILE.md`` writes: the history the model saw.

``serializeHistoryToMarkdown`` (google-gemini/gemini-cli ``packages/cli/src/ui/utils/
historyExportUtils.ts``, before that ``ui/commands/chatCommand.ts``) writes each ``Content`` as
``## USER 🧑‍💻`` or ``## MODEL ✨``, a blank line, then its parts joined: a text part as it is, a
call as ``**Tool Command**:`` and the ``functionCall`` as indented JSON in a ```` ```json ````
fence, a tool's answer as ``**Tool Response**:`` and its ``functionResponse`` the same way; the
turns are separated by ``---``. The parts are read back and handed to :mod:`formats.gemini_parts`,
so a shell call's report gives its exit code as in a session file.

Read as a Markdown log, the shell blocks of the model's text (commands it proposed) were the
commands, and the calls it made, inside JSON, none.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from spec_debug.session.events import Event
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.gemini_parts import PartsReader, user_events

_TURN = re.compile(r"^## (USER|MODEL) (?:🧑\u200d?💻|✨)\s*$")
_TOOL = re.compile(r"^\*\*Tool (Command|Response)\*\*:\s*$")
_HEAD_LINES = 400


def looks_like(head: list[str]) -> bool:
    """The file opens with a ``## USER 🧑‍💻`` heading (the first turn is the user's, often the
    CLI's own setup context with a long file tree), or the first lines hold both headings."""
    first = next((line.rstrip("\n") for line in head if line.strip()), "")
    if (m := _TURN.match(first)) is not None and m.group(1) == "USER":
        return True
    roles = {m.group(1) for line in head[:_HEAD_LINES] if (m := _TURN.match(line.rstrip("\n")))}
    return roles == {"USER", "MODEL"}


def read_lines(lines: Iterable[tuple[int, str, str | None]], cursor: Cursor) -> Iterator[Event]:
    parts_reader = PartsReader()
    seq = cursor.seq_base - 1
    role, start, body = None, 0, []
    for lineno, line, _ in [*lines, (None, "## USER 🧑💻", None)]:
        turn = _TURN.match(line.rstrip("\n"))
        if turn is None:
            body.append(line.rstrip("\n"))
            continue
        if role is not None:
            seq += 1
            yield from _turn(role, _parts(body), parts_reader, cursor, seq, start)
        role, start, body = turn.group(1), lineno, []
    cursor.records = seq - cursor.seq_base + 1


def _turn(role: str, parts: list[dict], parts_reader: PartsReader, cursor: Cursor, seq: int,
          lineno: int) -> Iterator[Event]:
    def event(kind, role, block=0, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                     block=block, timestamp=None, file=cursor.file, line=lineno, **kw)

    if role == "USER":
        yield from user_events(parts, event, parts_reader)
    else:
        yield from parts_reader.reply(parts, event)


def _parts(body: list[str]) -> list[dict]:
    """The turn's parts: text between the tool blocks, each block's JSON as its part."""
    while body and body[-1].strip() in ("", "---"):
        body = body[:-1]
    parts: list[dict] = []
    text: list[str] = []
    i = 0
    while i < len(body):
        tool = _TOOL.match(body[i])
        if tool and i + 1 < len(body) and body[i + 1].strip() == "```json":
            end = next((j for j in range(i + 2, len(body)) if body[j].strip() == "```"), None)
            value = _json("\n".join(body[i + 2:end])) if end is not None else None
            if isinstance(value, dict):
                _add_text(parts, text)
                parts.append({"functionCall" if tool.group(1) == "Command" else "functionResponse": value})
                i = end + 1
                continue
        text.append(body[i])
        i += 1
    _add_text(parts, text)
    return parts


def _add_text(parts: list[dict], text: list[str]) -> None:
    joined = "\n".join(text).strip()
    if joined:
        parts.append({"text": joined})
    text.clear()


def _json(text: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None
