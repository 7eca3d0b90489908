"""The Markdown a Claude Code session is turned into by kiliman/claude-transcript (``.claude-transcripts/
<date>-<title>_<id>.md``, committed beside projects)::

    # 🤖 Claude Code Transcript
    ## 🗂️ ~/Projects/oss/claude-transcript
    🕒 2025-08-10 14:42:56 - 2025-08-11 15:07:07
    Session ID: `bc761bdf-e1dd-4cda-b40f-7ee5c8514a3c`

    > [!IMPORTANT]
    > I would like to move all the formatting methods ...

    I'll help you refactor the code ...

    💻 **Bash: Run lint to check for TypeScript errors**
    ```shell
    npm run lint
    ```
    ```
    Error: npm error Missing script: "lint"
    ```

A prompt is a ``> [!IMPORTANT]`` quote, the person's stop a ``> [!WARNING]`` quote of Claude Code's
"[Request interrupted by user]", a refused call a ``> [!CAUTION]`` quote of "Error: The user doesn't
want to proceed ..."; a tool call is ``<emoji> **Tool: description**`` (a Bash call's command in a
``shell`` fence after it), its result the next fence, Claude Code's ``toolUseResult`` text, which
starts "Error: " where the call failed; an output of more than 12 lines is cut to its first 8 and
"... +N lines ([view file](contents/...))" (kiliman/claude-transcript ``src/OutputFormatter.ts``,
``format``, ``formatUserMessage`` and ``formatToolUse``; a real transcript: the same repository's
``.claude-transcripts/2025-08-10_14-42-56Z-i-would-like-to-move_bc761bdf.md`` at 59057b38). Each part
is read as the Claude Code line it was made from (:mod:`formats.claude_code`). Read as a plain-text
log, only the first shell fence was a command: no prompt, no other command, no stop.

Automaker's ``agent-output.md`` (``.automaker/features/<feature>/agent-output.md``) is another
rendering of a Claude Code run: the model's text, and each call as ``🔧 Tool: Bash`` then ``Input:``
and the call's input as indented JSON; it keeps no results (yinkev/praDeep
``.automaker/features/async-task-queue/agent-output.md`` at 41f14ec6). Its calls are read as the
session's, their outcome unknown; read as a text log it had no command at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

HEADER = "# 🤖 Claude Code Transcript"
_CWD = "## 🗂️ "
_SESSION = re.compile(r"^Session ID: `([^`\n]+)`\s*$")
_STARTED = re.compile(r"^🕒 (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)")
_TOOL = re.compile(r"^[^\x00-\x7f\s]{1,3} \*\*(?P<name>[A-Za-z][\w-]*)(?::\s*(?P<said>.*?))?\*\*\s*$")
"""A tool call's line: its emoji, then the tool's name and its description (``getToolEmoji``,
``getToolDescription``); a list item of the model's text ("- **Summary**") is none."""
_QUOTES = {"> [!IMPORTANT]": "prompt", "> [!WARNING]": "stop", "> [!CAUTION]": "refused"}
_ERROR = "Error: "
_SLASH = re.compile(r"^`(/[\w:.-]+)`\\?\n?(.*)$", re.S)
"""A slash command the person typed, as ``CommandParser`` writes its markup: the name in backticks
and a backslash (a Markdown line break), then its message on the next line."""


_AUTOMAKER_TOOL = "🔧 Tool: "
_AUTOMAKER_INPUT = "Input: {"


def looks_like_automaker(head: list[str]) -> bool:
    """Two of the head's lines are Automaker's calls, each followed by its input (one alone may be
    quoted in a note)."""
    calls = 0
    for i, line in enumerate(head[:-1]):
        if line.startswith(_AUTOMAKER_TOOL) and head[i + 1].startswith(_AUTOMAKER_INPUT):
            calls += 1
            if calls == 2:
                return True
    return False


def read_automaker(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor,
                   stats: ReadStats) -> Iterator[Event]:
    return claude_code.link_records(claude_code.parse_records(_automaker_records(lines, cursor), cursor, stats),
                                    cursor)


def _automaker_records(lines: Iterator[tuple[int, str, str | None]],
                       cursor: Cursor) -> Iterator[tuple[int, int, dict]]:
    parts = _Parts(cursor)
    text: list[str] = []
    text_line = 0
    tool: tuple[int, str] | None = None  # the call whose input is being read
    given: list[str] | None = None
    for lineno, line, _ in lines:
        if given is not None:
            given.append(line)
            if line.rstrip() != "}":
                continue
            try:
                tool_input = json.loads("\n".join(given))
            except (ValueError, RecursionError):
                continue  # a "}" inside the input's text: read on
            given = None
            if tool is not None and isinstance(tool_input, dict):
                parts.calls += 1
                yield parts.record(tool[0], "assistant", [{"type": "tool_use", "id": f"automaker-call-{parts.calls}",
                                                           "name": tool[1], "input": tool_input}])
            tool = None
            continue
        if line.startswith(_AUTOMAKER_TOOL):
            yield from _flush(parts, text, text_line)
            text = []
            tool = (lineno, line[len(_AUTOMAKER_TOOL):].strip())
            continue
        if tool is not None and line.startswith(_AUTOMAKER_INPUT):
            given = ["{"]
            continue
        tool = None
        if line.strip() or text:
            if not text:
                text_line = lineno
            text.append(line)
    yield from _flush(parts, text, text_line)


def looks_like(head: list[str]) -> bool:
    """The title on the first line, the session's id under it."""
    lines = [line.strip() for line in head[:8] if line.strip()]
    return bool(lines) and lines[0] == HEADER and any(_SESSION.match(line) for line in lines[1:5])


def read_lines(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    return claude_code.recorded_statuses(
        claude_code.link_records(claude_code.parse_records(_records(lines, cursor), cursor, stats), cursor))


class _Parts:
    """The transcript's parts as Claude Code lines: ``(index, line, record)``."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.index = 0
        self.info: dict[str, str] = {}
        self.calls = 0
        self.open_call: str | None = None  # the call whose result has not been read yet

    def record(self, line: int, role: str, content) -> tuple[int, int, dict]:
        record = {"type": role, "uuid": f"transcript-{self.index}", "message": {"role": role, "content": content}}
        for key in ("sessionId", "cwd", "timestamp"):
            if key in self.info:
                record[key] = self.info[key]
        self.info.pop("timestamp", None)  # the session's start is its first line's time only
        out = (self.index, line, record)
        self.index += 1
        self.cursor.records = self.index
        return out

    def call(self, line: int, name: str, said: str | None, command: str | None) -> tuple[int, int, dict]:
        self.calls += 1
        self.open_call = f"transcript-call-{self.calls}"
        tool_input: dict = {"command": command} if command is not None else {}
        if said:
            tool_input["description"] = said
        return self.record(line, "assistant", [{"type": "tool_use", "id": self.open_call, "name": name,
                                                "input": tool_input}])

    def result(self, line: int, text: str, is_error: bool) -> tuple[int, int, dict] | None:
        if self.open_call is None:
            return None
        call, self.open_call = self.open_call, None
        return self.record(line, "user", [{"type": "tool_result", "tool_use_id": call, "content": text,
                                           "is_error": is_error}])


def _records(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor) -> Iterator[tuple[int, int, dict]]:
    parts = _Parts(cursor)
    text: list[str] = []
    text_line = 0
    pending: tuple[int, str, str | None] | None = None  # a tool line whose shell fence may follow
    fence: list[str] | None = None  # the lines of an open fence
    fence_line, fence_shell = 0, False
    quote: tuple[int, str, list[str]] | None = None
    for lineno, line, _ in lines:
        if fence is not None:
            if line.rstrip() == "```":
                body = "\n".join(fence)
                if fence_shell and pending is not None:
                    yield parts.call(pending[0], pending[1], pending[2], body)
                    pending = None
                elif pending is not None:
                    yield parts.call(pending[0], pending[1], pending[2], None)
                    pending = None
                    if (done := parts.result(fence_line, body, False)) is not None:
                        yield done
                elif (done := parts.result(fence_line, body.removeprefix(_ERROR),
                                           body.startswith(_ERROR))) is not None:
                    yield done
                else:
                    text.extend(["```", *fence, "```"])
                fence = None
            else:
                fence.append(line)
            continue
        if quote is not None:
            if line.startswith(">"):
                quote[2].append(line[2:] if line.startswith("> ") else line[1:])
                continue
            yield from _quoted(parts, *quote)
            quote = None
        stripped = line.rstrip()
        if stripped.startswith("```"):
            if pending is not None and stripped != "```shell":
                yield parts.call(pending[0], pending[1], pending[2], None)
                pending = None
            fence, fence_line, fence_shell = [], lineno, stripped == "```shell"
            continue
        if stripped in _QUOTES:
            yield from _flush(parts, text, text_line)
            text = []
            if pending is not None:
                yield parts.call(pending[0], pending[1], pending[2], None)
                pending = None
            quote = (lineno, _QUOTES[stripped], [])
            continue
        if parts.index == 0 and not text:
            if stripped.startswith(_CWD):
                parts.info["cwd"] = stripped[len(_CWD):].strip()
                continue
            if (found := _SESSION.match(stripped)) is not None:
                parts.info["sessionId"] = found.group(1)
                continue
            if (found := _STARTED.match(stripped)) is not None:
                parts.info["timestamp"] = f"{found.group(1)}T{found.group(2)}"
                continue
            if stripped == HEADER:
                continue
        if (tool := _TOOL.match(stripped)) is not None:
            yield from _flush(parts, text, text_line)
            text = []
            if pending is not None:
                yield parts.call(pending[0], pending[1], pending[2], None)
            pending = (lineno, tool.group("name"), tool.group("said"))
            continue
        if pending is not None and stripped:
            yield parts.call(pending[0], pending[1], pending[2], None)
            pending = None
        if stripped or text:
            if not text:
                text_line = lineno
            text.append(line)
    if fence is not None:
        text.extend(["```", *fence])
    if quote is not None:
        yield from _quoted(parts, *quote)
    if pending is not None:
        yield parts.call(pending[0], pending[1], pending[2], None)
    yield from _flush(parts, text, text_line)


def _flush(parts: _Parts, text: list[str], line: int) -> Iterator[tuple[int, int, dict]]:
    said = "\n".join(text).strip()
    if said:
        yield parts.record(line, "assistant", [{"type": "text", "text": said}])


def _quoted(parts: _Parts, line: int, kind: str, body: list[str]) -> Iterator[tuple[int, int, dict]]:
    said = "\n".join(body).strip()
    if kind == "refused" and (done := parts.result(line, said.removeprefix(_ERROR), True)) is not None:
        yield done  # the call refused: Claude Code's "Error: The user doesn't want to proceed ..."
    elif kind == "stop" and said.startswith(claude_code.INTERRUPTED) and parts.open_call is not None \
            and (done := parts.result(line, said, True)) is not None:
        yield done  # Esc while the call ran: its result
    elif said:
        if kind == "prompt" and (slash := _SLASH.match(said)) is not None:
            # a slash command, as CommandParser shows the <command-name> markup: the markup again
            said = f"<command-name>{slash.group(1)}</command-name>\n<command-message>{slash.group(2)}</command-message>"
        yield parts.record(line, "user", said if kind == "prompt" else [{"type": "text", "text": said}])
