"""The Markdown GitHub Copilot CLI's ``/share`` writes (``copilot-session-<sessionId>.md``).

Its shape, as a shared session published on GitHub shows it (yididiel7/gitmydocs
``createtutorials/copilot-session-e1ebe014-….md``; another quoted by the code index)::

    # 🤖 Copilot CLI Session
    > **Session ID:** `e1ebe014-…`
    > **Started:** 2/5/2026, 9:25:26 AM             local time, the en-US way

    <sub>⏱️ 18m 27s</sub>                           time since the start
    ### 👤 User | ### 💬 Copilot | ### ℹ️ Info        a prompt, a reply, a note
    ### ✅ `bash`  (❌ for a failed call)             a tool call, then
    **Search for …**                                 its description,
    $ curl -s …                                      the shell command (or an Arguments block:
    <details><summary>Arguments</summary> ```json {"command": …} ``` </details>)
    ```                                              and its output (in a <details> when long),
    …
    <exited with exit code 0>                        the shell tool's last line
    ```

Read as a Markdown log, the shell blocks of the replies (commands Copilot suggested) were
commands, and the calls it ran had no exit code and no time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta

from spec_debug.session.events import Event
from spec_debug.session.formats.common import Cursor, remote_host, shell_command, tool_path

_TITLE = "# 🤖 Copilot CLI Session"
_SECTION = re.compile(r"^### (?:(?P<user>👤 User)|(?P<reply>💬 Copilot)|(?P<mark>[✅❌]) `(?P<tool>[^`]+)`|"
                      r"(?P<note>(?:ℹ️|⚠️|❗) ?\S.*))\s*$")
_ELAPSED = re.compile(r"^<sub>⏱️ (?:(\d+)h )?(?:(\d+)m )?(\d+)s</sub>\s*$")
_STARTED = re.compile(r"^> \*\*Started:\*\* (\d{1,2})/(\d{1,2})/(\d{4}),? (\d{1,2}):(\d\d):(\d\d)(?:\s*([AP]M))?\s*$")
_SESSION = re.compile(r"^> \*\*Session ID:\*\* `([^`]+)`")
_EXIT = re.compile(r"^<exited with exit code (-?\d+)>\s*$")
SHELL_TOOLS = frozenset({"bash", "powershell", "shell"})
_HEAD_LINES = 20


def looks_like(head: list[str]) -> bool:
    """The export's title, then its session id, in the first lines."""
    lines = [line.strip() for line in head[:_HEAD_LINES]]
    return _TITLE in lines and any(_SESSION.match(line) for line in lines)


def read_lines(lines: Iterable[tuple[int, str, str | None]], cursor: Cursor) -> Iterator[Event]:
    reader = _Reader(cursor)
    for lineno, line, _ in lines:
        yield from reader.feed(line.rstrip("\n"), lineno)
    yield from reader.flush()
    cursor.records = reader.seq - cursor.seq_base + 1


class _Reader:
    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.seq = cursor.seq_base - 1
        self.started: datetime | None = None
        self.elapsed: timedelta | None = None
        self.at: timedelta | None = None
        """The time of the section being read (the ``<sub>⏱️`` line above its heading)."""
        self.section: re.Match | None = None
        self.line = 0
        self.body: list[str] = []
        self.calls = 0

    def feed(self, line: str, lineno: int) -> Iterator[Event]:
        if self.started is None and (m := _STARTED.match(line)):
            self.started = _local_time(m)
        if (m := _ELAPSED.match(line.strip())) is not None:
            self.elapsed = timedelta(hours=int(m.group(1) or 0), minutes=int(m.group(2) or 0), seconds=int(m.group(3)))
            return
        section = _SECTION.match(line)
        if section is not None:
            yield from self.flush()
            self.section, self.line, self.body, self.at = section, lineno, [], self.elapsed
            return
        if self.section is not None:
            self.body.append(line)

    def _time(self) -> str | None:
        if self.started is None or self.at is None:
            return None
        return (self.started + self.at).isoformat()

    def _event(self, kind, role, block=0, **kw) -> Event:
        return Event(session=self.cursor.session, seq=self.seq, agent=self.cursor.agent, role=role, kind=kind,
                     block=block, timestamp=self._time(), file=self.cursor.file, line=self.line, **kw)

    def flush(self) -> Iterator[Event]:
        section, body, self.section, self.body = self.section, self.body, None, []
        if section is None:
            return
        self.seq += 1
        text = _text(body)
        if section.group("user"):
            yield self._event("prompt", "user", text=text)
        elif section.group("reply"):
            yield self._event("text", "assistant", text=text)
        elif section.group("tool"):
            yield from self._call(section.group("tool"), section.group("mark") == "❌", body)
        else:
            yield self._event("system", "system", raw_type="note", text=f"{section.group('note')}\n{text}".strip())

    def _call(self, name: str, failed: bool, body: list[str]) -> Iterator[Event]:
        self.calls += 1
        call_id = f"copilot-share-{self.calls}"
        args, command, description, output = _tool_parts(body)
        if command is None and (name in SHELL_TOOLS or remote_host(args)):
            command = shell_command(args)
        yield self._event("tool_call", "assistant", 0, tool_name=name, call_id=call_id, command=command,
                          description=description, path=tool_path(args), host=remote_host(args),
                          text=command or (json.dumps(args)[:2000] if args else ""))
        code = None
        if output and _EXIT.match(output[-1]):
            code = int(_EXIT.match(output[-1]).group(1))
            output = output[:-1]
        result = "\n".join(output).rstrip()
        if command is not None and result.endswith(";"):
            result = result[:-1].rstrip()  # PowerShell's output ends in the `;` the tool appended
        yield self._event("tool_result", "tool", 1, call_id=call_id, text=result, exit_code=code,
                          is_error=failed or bool(code))


def _local_time(m: re.Match) -> datetime | None:
    month, day, year, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    if m.group(7):  # 12-hour clock
        hour = hour % 12 + (12 if m.group(7) == "PM" else 0)
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None


def _text(body: list[str]) -> str:
    """A section's words without the ``---`` that closes it."""
    lines = list(body)
    while lines and lines[-1].strip() in ("", "---"):
        lines.pop()
    return "\n".join(lines).strip()


def _tool_parts(body: list[str]) -> tuple[dict, str | None, str | None, list[str]]:
    """``(arguments, command, description, output lines)`` of a tool section."""
    args: dict = {}
    command = description = None
    output: list[str] = []
    fence: list[str] | None = None
    in_arguments = found_output = False
    for line in body:
        stripped = line.strip()
        if fence is not None:
            if stripped == "```":
                if in_arguments:
                    args = _json_object("\n".join(fence))
                elif not found_output:
                    output, found_output = fence, True
                fence = None
            else:
                fence.append(line)
        elif stripped.startswith("```"):
            fence = []
        elif stripped == "<summary>Arguments</summary>":
            in_arguments = True
        elif stripped == "</details>":
            in_arguments = False
        elif description is None and stripped.startswith("**") and stripped.endswith("**") and len(stripped) > 4:
            description = stripped[2:-2]
        elif command is None and line.startswith("$ "):
            command = line[2:].strip()
    return args, command, description, output


def _json_object(text: str) -> dict:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
