"""OpenCode's Markdown transcript (its ``/export`` and "copy transcript"), the form OpenCode sessions
are most often shared in:

```
# <title>

**Session ID:** ses_…
**Created:** 5/20/2026, 8:13:08 PM
**Updated:** 5/20/2026, 10:50:15 PM

---

## User

<prompt>

---

## Assistant (Build · Claude Sonnet 4.5 · 8.4s)

_Thinking:_

<reasoning>

**Tool: bash**

**Input:**
```json
{"command": "pnpm build 2>&1 | tail -60", "description": "…", "timeout": 180000}
```

**Output:**          (or **Error:** for a failed call)
```
<output, with the bash tool's <bash_metadata>/<shell_metadata> note at its end>
```
```

The shape is that of the transcripts shared in public repositories (e.g. exported sessions with
Vietnamese, Italian and English prompts; see tests/session/test_lead18_opencode_export.py). The
transcript names no exit code: a call failed when it is an ``**Error:**`` block, or when its output
ends with the bash tool's note that it killed the command at its timeout (formats.opencode).
Read as a generic Markdown log, every turn was the assistant's and no command was found.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, call_text, remote_host, shell_command, tool_path
from spec_debug.session.formats.marked_markdown import MAX_CHARS, TurnReader
from spec_debug.session.formats.opencode import SHELL_TOOLS, TIMED_OUT

_SESSION_ID = re.compile(rb"(?m)^\*\*Session ID:\*\* ses_\w+\s*$")
_TURN = re.compile(r"^## (User|Assistant)(?: \((.*)\))?\s*$")
_TOOL = re.compile(r"^\*\*Tool: ([^*]+)\*\*\s*$")
_PART = re.compile(r"^\*\*(Input|Output|Error):\*\*\s*$")
_CREATED = re.compile(r"^\*\*Created:\*\* (.+?)\s*$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_THINKING = "_Thinking:_"
_EXIT_NOTE = re.compile(r"<(?:bash|shell)_metadata>[^<]*^Exit code: (\d+)$", re.M)
"""The exit code where the tool's note states it (OpenCode-compatible bash tools append
``<bash_metadata>\nExit code: N\n</bash_metadata>``); OpenCode's own names only a timeout."""


def looks_like(head: bytes) -> bool:
    """A title line first, then the session's ``**Session ID:** ses_…`` line (OpenCode's ids)."""
    return head.startswith(b"# ") and _SESSION_ID.search(head[:4096]) is not None


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    return _Reader.read_file(path, cursor, stats)


class _Reader(TurnReader):
    def __init__(self, cursor: Cursor) -> None:
        super().__init__(cursor)
        self.kind = "text"  # what the lines being gathered are: text or thinking
        self.tool: tuple[str, int] | None = None  # the call whose Input/Output is still to come
        self.args: dict | None = None
        self.call_id = ""
        self.calls = 0

    def read(self, lines: Iterator[tuple[int, str, str | None]]) -> Iterator[Event]:
        fenced: list[str] | None = None  # the open fenced block, and what it is
        fenced_chars = 0
        fence, part, part_line = "", "", 0
        for lineno, line, _ in lines:
            if fenced is not None:
                if line.startswith(fence) and not line.strip().strip(fence[0]):
                    yield from self._part(part, "\n".join(fenced), part_line)
                    fenced, part = None, ""
                elif fenced_chars < MAX_CHARS:
                    fenced.append(line)
                    fenced_chars += len(line) + 1
                continue
            turn = _TURN.match(line)
            if turn:
                yield from self._flush()
                yield from self._close_tool()
                self._turn(turn.group(1))
                part = ""
                continue
            if not self.role:  # the title and the session's lines before the first turn
                created = _CREATED.match(line)
                if created:
                    self.timestamp = _local_time(created.group(1))
                continue
            tool = _TOOL.match(line)
            if tool:
                yield from self._flush()
                yield from self._close_tool()
                self.tool, part = (tool.group(1).strip(), lineno), ""
                continue
            labelled = _PART.match(line)
            if labelled and self.tool is not None:
                part, part_line = labelled.group(1), lineno
                continue
            opening = _FENCE.match(line) if part else None
            if opening:
                fenced, fence, fenced_chars = [], opening.group(1), 0
                continue
            if line.strip() == "---":
                continue
            if line.strip() == _THINKING:
                yield from self._flush()
                yield from self._close_tool()
                self.kind = "thinking"
                continue
            line = line.replace("<think></think>", "")
            if self.tool is not None and line.strip():
                yield from self._close_tool()  # prose after a call: the call had no output
            self._gather(line, lineno)
        if fenced is not None:
            yield from self._part(part, "\n".join(fenced), part_line)  # the file ends inside a block
        yield from self._flush()
        yield from self._close_tool()
        self.count_records()

    def _turn(self, role: str) -> None:
        self.next_turn("user" if role == "User" else "assistant")
        self.kind = "text"
        if self.seq > self.cursor.seq_base:
            self.timestamp = None  # only the session's start is written; later turns have a duration

    def _gather(self, line: str, lineno: int) -> None:
        if not self.lines:
            if not line.strip():
                return
            self.first_line = lineno
        self.keep(line)

    def _flush(self) -> Iterator[Event]:
        text = "\n".join(self.take()).strip()
        if not text:
            return
        if self.role == "user":
            yield self.event("prompt", "user", self.first_line, text=text)
        else:
            yield self.event(self.kind, "assistant", self.first_line, text=text)

    def _part(self, part: str, content: str, line: int) -> Iterator[Event]:
        if self.tool is None:
            return
        if part == "Input":
            try:
                args = json.loads(content)
            except (ValueError, RecursionError):
                args = None
            self.args = args if isinstance(args, dict) else {"input": content}
            return
        yield from self._call()
        killed = part == "Output" and TIMED_OUT in content
        stated = _EXIT_NOTE.search(content) if "_metadata>" in content else None
        code = int(stated.group(1)) if stated else None
        yield self.event("tool_result", "tool", line, call_id=self.call_id, text=content, exit_code=code,
                          is_error=part == "Error" or killed or bool(code))
        self.tool, self.args = None, None

    def _call(self) -> Iterator[Event]:
        """The call's event, once its input is known (an Output with no Input is a call without one)."""
        assert self.tool is not None
        name, line = self.tool
        args = self.args or {}
        self.calls += 1
        self.call_id = f"opencode-md-call-{self.calls}"
        command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
        description = args.get("description") if isinstance(args.get("description"), str) else None
        yield self.event("tool_call", "assistant", line, tool_name=name, call_id=self.call_id, command=command,
                          text=call_text(command, args), path=tool_path(args), description=description,
                          host=remote_host(args) if command is not None else None)

    def _close_tool(self) -> Iterator[Event]:
        """A call with no result in the transcript (still running when it was exported)."""
        if self.tool is not None:
            yield from self._call()
            self.tool, self.args = None, None
        self.kind = "text"


def _local_time(text: str) -> str | None:
    """``5/20/2026, 8:13:08 PM`` (the exporting machine's locale and zone, en-US the common one) as
    ISO 8601 without a zone; None for another locale's spelling."""
    for layout in ("%m/%d/%Y, %I:%M:%S %p", "%m/%d/%Y, %H:%M:%S"):
        try:
            return datetime.strptime(text, layout).isoformat()
        except ValueError:
            continue
    return None
