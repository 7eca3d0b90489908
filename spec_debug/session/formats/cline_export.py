"""Cline's and Roo Code's exported task, ``cline_task_<date>.md`` / ``roo_task_<date>.md`` (the
"Export" button; the form these sessions are attached to issues in):

```
**User:**

<task>
…
</task>
<environment_details>…</environment_details>

---

**Assistant:**

[Reasoning]                      (Roo Code: the model's reasoning)
…
[Tool Use: execute_command]
Command: npm init -y
Cwd: .

---

**User:**

[Tool]                           ([Tool (Error)] for a failed call)
Command executed in terminal within working directory '/p'. Exit code: 0
Output:
…
```

Each message is ``**User:**`` or ``**Assistant:**``, a blank line and its blocks, the messages
joined by ``---`` lines; a ``tool_use`` block is ``[Tool Use: <name>]`` then its input one
``Key: value`` line a key (the key's first letter capitalised), a ``tool_result`` block
``[Tool]`` or ``[Tool (Error)]`` then its content (cline/cline ``src/integrations/misc/
export-markdown.ts``, ``formatContentBlockToMarkdown``; RooCodeInc/Roo-Code the same file).
Older exports head a result ``[Tool Result]`` or ``[<tool name>]``. Read as a plain Markdown log,
no command, no result and no failure was found (public exports of both extensions).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import cline_task
from spec_debug.session.formats.common import Cursor, call_text, remote_host, shell_command, tool_path
from spec_debug.session.formats.marked_markdown import TurnReader

_TURN = re.compile(r"^\*\*(User|Assistant):\*\*\s*$")
_TOOL_USE = re.compile(r"^\[Tool Use: ([\w.:-]+)\]\s*$")
_RESULT = re.compile(r"^\[(Tool|Tool \(Error\)|Tool Result|[a-z_]+)(?: for '.*)?\](?: Result:)?\s*$")
"""A result's header line. The XML-calling releases head it ``[execute_command for 'ls'] Result:``
(IBM Bob, a Roo Code fork, adds a note after the quote: ``[read_file for 'a.py'. Reading multiple
files at once is more efficient ...] Result:``, a public export)."""
_RESULT_OPENS = re.compile(r"^\[([a-z_]+) for '")
"""The first line of a header whose command spans lines (``[execute_command for 'cat <<EOF``)."""
_HEADER_END = "] Result:"
_INPUT_KEY = re.compile(r"^([A-Z][A-Za-z_]*): ?(.*)$")
_REASONING = "[Reasoning]"
_ENV_OPEN, _ENV_CLOSE = "<environment_details>", "</environment_details>"
_SHELL_TOOLS = frozenset({"execute_command", "attempt_completion"})
"""Tools whose ``Command:`` is run: attempt_completion's optional command shows the result (``xdg-open
index.html``, in a public export; its ``command`` parameter in cline/cline ``src/core/prompts/system.ts``)."""
_ISO_NOW = re.compile(r"Current time in ISO 8601 UTC format: (\d{4}-\d\d-\d\dT[\d:.]+Z)")
_LOCAL_NOW = re.compile(r"^(\d{1,2}/\d{1,2}/\d{4}, \d{1,2}:\d\d:\d\d [AP]M) \([^,()]*, UTC([+-]\d{1,2}):(\d\d)\)", re.M)
"""The time the environment details give each user turn: Roo Code's ``Current time in ISO 8601 UTC
format: 2026-01-20T15:04:01.384Z``; Cline's ``4/24/2026, 4:25:53 PM (America/Los_Angeles,
UTC-7:00)`` under ``# Current Time``. The export writes no other time."""


def looks_like(head: bytes) -> bool:
    """An export opens with the task's first message: ``**User:**`` then ``<task>`` (a task
    started from a plain prompt still has the assistant's turn marked within the head, and the
    extension's own marks: the ``<environment_details>`` it adds to every user turn, a ``[Tool
    Use: …]`` call). ``**User:**`` / ``**Assistant:**`` alone are any chat's Markdown: read as a
    text log, its ``$ command`` lines are its commands."""
    if not head.startswith(b"**User:**"):
        return False
    window = head[:8192]
    return b"<task>" in window[:400] or (b"\n**Assistant:**" in window
                                          and (b"<environment_details>" in window or b"\n[Tool Use: " in window))


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    return _Reader.read_file(path, cursor, stats)


class _Reader(TurnReader):
    """The export writes no time but the one in a user turn's environment details: ``timestamp``
    stays None, the user turn's events are held until its details are read (:meth:`_release`)."""

    def __init__(self, cursor: Cursor) -> None:
        super().__init__(cursor)
        self.kind = ""  # what the lines gathered are: text, thinking, call, result, env
        self.head = ""  # the call's tool name, or the result's header
        self.calls = 0
        self.pending: list[str] = []  # calls of the last assistant turn without a result yet
        self.held: list[Event] = []  # a user turn's events, until its environment details give its time
        self.turn_time: str | None = None
        self.header_open = False  # a result's header of many lines is being passed

    def read(self, lines: Iterator[tuple[int, str, None]]) -> Iterator[Event]:
        for lineno, line, _ in lines:
            turn = _TURN.match(line)
            if turn:
                yield from self._flush()
                yield from self._release()
                self._turn(turn.group(1))
                continue
            if not self.role:
                continue
            yield from self._line(line.rstrip("\r"), lineno)
        yield from self._flush()
        yield from self._release()
        self.count_records()

    def _line(self, line: str, lineno: int) -> Iterator[Event]:
        if line.strip() == "---" and self.kind != "call":
            return  # the separator between messages (a call's Content: may hold one of its own)
        stripped = line.strip()
        if self.kind != "env" and stripped.startswith(_ENV_OPEN):
            yield from self._flush()
            self._start("env", lineno)
        if self.kind == "env":
            self.keep(line)
            if _ENV_CLOSE in line:
                yield from self._flush()
            return
        if self.role == "assistant" and (tool := _TOOL_USE.match(line)):
            yield from self._flush()
            self._start("call", lineno, tool.group(1))
            return
        if self.role == "assistant" and stripped == _REASONING:
            yield from self._flush()
            self._start("thinking", lineno)
            return
        if self.role == "user" and (result := _RESULT.match(line)):
            yield from self._flush()
            self._start("result", lineno, result.group(1))
            return
        if self.role == "user" and (result := _RESULT_OPENS.match(line)) and _HEADER_END not in line:
            yield from self._flush()
            self._start("result", lineno, result.group(1))
            self.header_open = True  # the command's lines are the header's, not the output's
            return
        if self.header_open:
            self.header_open = _HEADER_END not in line
            return
        if not self.kind:
            if not stripped:
                return
            self._start("text", lineno)
        self.keep(line)

    def _turn(self, role: str) -> None:
        self.next_turn("user" if role == "User" else "assistant")
        if role != "User":
            self.pending = []

    def _start(self, kind: str, lineno: int, head: str = "") -> None:
        self.kind, self.head, self.first_line = kind, head, lineno
        self.take()  # a new block: the lines of none before it

    def _event(self, kind: str, role: str, **kw) -> Event:
        return self.event(kind, role, self.first_line, **kw)  # a block's events are at its first line

    def _release(self) -> Iterator[Event]:
        """The user turn's events, with the time its environment details named."""
        for ev in self.held:
            ev.timestamp = self.turn_time
        yield from self.held
        self.held, self.turn_time = [], None

    def _flush(self) -> Iterator[Event]:
        if self.role == "user":
            self.held.extend(self._flushed())
            return
        yield from self._flushed()

    def _flushed(self) -> Iterator[Event]:
        kind, lines = self.kind, self.take()
        self.kind = ""
        text = "\n".join(lines).strip("\n")
        if kind == "call":
            yield self._call(lines)
        elif kind == "result":
            yield self._result(text)
        elif kind == "env" and text.strip():
            self.turn_time = self.turn_time or _turn_time(text)
            yield self._event("system", self.role, raw_type="environment_details", text=text)
        elif kind in ("text", "thinking") and text.strip():
            if self.role == "user":
                note = cline_task.result_header(text) is not None or cline_task.is_extension_note(text)
                yield self._event("system" if note else "prompt", "user", text=text)
            else:
                yield self._event(kind, "assistant", text=text)
                if kind == "text":
                    # The XML-calling releases (Cline before native tool calls, Roo Code, IBM Bob)
                    # export the reply's text as it was, its calls in it (formats.cline_task)
                    for name, args in cline_task.xml_calls(text):
                        yield self._tool_call(name, args)

    def _call(self, lines: list[str]) -> Event:
        name = self.head
        lines = list(lines)
        while lines and lines[-1].strip() in ("", "---"):
            lines.pop()  # the separator before the next message
        args: dict[str, str] = {}
        key = None
        for line in lines:
            found = _INPUT_KEY.match(line)
            if found and found.group(1).lower() not in args:  # a key seen already is a line of a value
                key = found.group(1).lower()
                args[key] = found.group(2)
            elif key is not None:
                args[key] += "\n" + line  # a value of many lines (a file's Content:, a long command)
        return self._tool_call(name, {k: v.strip("\n") for k, v in args.items()})

    def _tool_call(self, name: str, args: dict[str, str]) -> Event:
        command = shell_command(args) if name in _SHELL_TOOLS else None
        self.calls += 1
        call_id = f"cline-md-call-{self.calls}"
        self.pending.append(call_id)
        return self._event("tool_call", "assistant", tool_name=name, call_id=call_id, command=command,
                           text=call_text(command, args), path=tool_path(args),
                           host=remote_host(args) if command is not None else None)

    def _result(self, text: str) -> Event:
        code, failed = cline_task.exit_status(text)
        call_id = self.pending.pop(0) if self.pending else None
        return self._event("tool_result", "tool", call_id=call_id, text=text, exit_code=code,
                           is_error=failed or self.head == "Tool (Error)")


def _turn_time(details: str) -> str | None:
    found = _ISO_NOW.search(details)
    if found:
        return found.group(1)
    local = _LOCAL_NOW.search(details)
    if local is None:
        return None
    try:
        when = datetime.strptime(local.group(1), "%m/%d/%Y, %I:%M:%S %p")
    except ValueError:
        return None
    hours = int(local.group(2))
    offset = timedelta(hours=hours, minutes=int(local.group(3)) * (-1 if hours < 0 or local.group(2)[0] == "-" else 1))
    return when.replace(tzinfo=timezone(offset)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
