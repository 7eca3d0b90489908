"""The text Claude Code's ``/export`` writes (to a file, or the clipboard pasted into one): the
conversation as the terminal drew it. The shape, as published exports show it (e.g. the
claude-skills and inventory-service transcripts found by the ``⏺ Bash(`` marker; the same
rendering as the CLI's screen):

    > why is accept len 1.0 on gpu01?              a prompt (``❯`` on newer CLIs)

    ⏺ I'll check the server log first.             the model's text, continued two spaces in

    ⏺ Bash(ssh gpu01 'grep -m2 "accept len"        a tool call: Name(arguments), cut at the
          /var/log/sglang/server.log')             terminal's width, continued six spaces in
      ⎿  [2025-08-14 09:12:01] Decode batch, …     its result, continued five spaces in
         … +12 lines (ctrl+r to expand)            what the screen folded away

A failed command's result starts ``Error:`` (``Error: Exit code 1``). Read as plain text, the
whole export was the model's prose: no command, no error, no prompt.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from spec_debug.session.events import Event
from spec_debug.session.formats.common import Cursor, exit_code_of, remote_host

_CALL_MARK, _RESULT_MARK = "⏺", "⎿"
_PROMPT_MARKS = ("> ", "❯ ")
_CALL = re.compile(r"^⏺ ([A-Z][A-Za-z]*|[\w.-]+ - [\w.-]+ \(MCP\))\((.*)$")
"""``⏺ Bash(…``, ``⏺ Read(…``, an MCP tool ``⏺ ssh - exec (MCP)(host: "gpu01", …``."""
_FOLDED = re.compile(r"^… \+\d+ lines? \(ctrl\+\w to (?:expand|see all)\)\s*$")
_FRAME = ("╭", "│", "╰")
_SHELL_TOOLS = frozenset({"Bash", "BashOutput", "PowerShell"})
_PATH_TOOLS = frozenset({"Read", "Write", "Edit", "Update", "MultiEdit", "NotebookEdit"})
_HEAD_LINES = 200


def looks_like(head: list[str]) -> bool:
    """The first lines hold a ``⏺`` line and a ``⎿`` result under one, at the place the CLI
    draws them (symbols no other log puts at the start of a line)."""
    calls = results = 0
    for line in head[:_HEAD_LINES]:
        if line.startswith(_CALL_MARK + " "):
            calls += 1
        elif line.lstrip(" ").startswith(_RESULT_MARK) and line.startswith("  "):
            results += 1
    return calls > 0 and results > 0


def read_lines(lines: Iterable[tuple[int, str, str | None]], cursor: Cursor) -> Iterator[Event]:
    reader = _Reader(cursor)
    for lineno, line, _ in lines:
        yield from reader.feed(line, lineno)
    yield from reader.flush()
    cursor.records = reader.seq - cursor.seq_base + 1


class _Reader:
    """One block at a time: a prompt, a text, a call or a result, each ended by the next mark."""

    def __init__(self, cursor: Cursor) -> None:
        self.cursor = cursor
        self.seq = cursor.seq_base - 1
        self.kind: str | None = None  # prompt | text | call | result
        self.lines: list[str] = []
        self.line = 0
        self.call: Event | None = None
        self.calls = 0

    def feed(self, line: str, lineno: int) -> Iterator[Event]:
        if self.kind is None and line.startswith(_FRAME):
            return  # the welcome box
        if line.startswith(_CALL_MARK + " "):
            yield from self._start("text", line[2:], lineno)
        elif line.startswith(_PROMPT_MARKS) or line.rstrip() in (">", "❯"):
            yield from self._start("prompt", line[2:], lineno)
        elif line.lstrip(" ").startswith(_RESULT_MARK) and line.startswith("  ") and self.kind in ("call", "text", "result"):
            yield from self._start("result", line.lstrip(" ")[1:].lstrip(" "), lineno)
        elif self.kind is not None and (line.startswith(" ") or not line.strip()):
            self.lines.append(line)
        elif line.strip():
            yield from self._start("text", line, lineno)  # prose the export did not mark

    def _start(self, kind: str, first: str, lineno: int) -> Iterator[Event]:
        if kind == "result" and self.kind == "text" and len(self.lines) == 1 and len(self.lines[0]) <= 60:
            self.kind = "bare_call"  # a tool shown without arguments: ``⏺ Update Todos`` then its ``⎿``
        yield from self.flush()
        if kind == "text" and _CALL.match(_CALL_MARK + " " + first):
            kind = "call"
        if kind != "result":
            self.seq += 1
        self.kind, self.lines, self.line = kind, [first], lineno

    def flush(self) -> Iterator[Event]:
        kind, lines, self.kind, self.lines = self.kind, self.lines, None, []
        if kind is None:
            return
        if kind == "call":
            yield self._call(lines)
            return
        if kind == "bare_call":
            self.calls += 1
            self.call = self._event("tool_call", "assistant", tool_name=lines[0].strip(),
                                    call_id=f"export-call-{self.calls}", text=lines[0].strip())
            yield self.call
            return
        if kind == "result":
            yield self._result(lines)
            return
        text = "\n".join(_dedent(line, 2) for line in lines).strip()
        if not text:
            return
        if kind == "prompt":
            # a slash command (`> /compact`, `> /skills is running…`) is the CLI's, not a report
            yield self._event("system" if text.startswith("/") else "prompt", "user", text=text)
        else:
            yield self._event("text", "assistant", text=text)

    def _call(self, lines: list[str]) -> Event:
        # The call's line was cut at the terminal's width, mid-word as often as at a space, and
        # goes on six spaces in: the pieces join as they were.
        whole = lines[0] + "".join(line.lstrip(" ") for line in lines[1:] if line.strip())
        m = _CALL.match(_CALL_MARK + " " + whole)
        name, args = m.group(1), m.group(2)
        args = args[:-1] if args.endswith(")") else args  # the closing parenthesis of Name(…)
        self.calls += 1
        call_id = f"export-call-{self.calls}"
        command = args if name in _SHELL_TOOLS else None
        host = None
        if name.endswith("(MCP)"):  # an SSH server's tool: {host, command} (formats.common.remote_host)
            command = _mcp_argument(args, "command")
            host = remote_host({key: value for key, value in _MCP_FIELD.findall(args)}) if command else None
        ev = self._event("tool_call", "assistant", tool_name=name, call_id=call_id, command=command, text=args,
                         path=args if name in _PATH_TOOLS else None, host=host)
        self.call = ev
        return ev

    def _result(self, lines: list[str]) -> Event:
        kept = [_dedent(line, 5) for line in lines[1:]]
        text = "\n".join([lines[0], *(line for line in kept if not _FOLDED.match(line.strip()))]).rstrip()
        code = exit_code_of(text)
        call, self.call = self.call, None
        return self._event("tool_result", "tool", call_id=call.call_id if call else None, text=text,
                           exit_code=code, is_error=code not in (None, 0) or text.startswith("Error"))

    def _event(self, kind: str, role: str, **kw) -> Event:
        return Event(session=self.cursor.session, seq=self.seq, agent=self.cursor.agent, role=role, kind=kind,
                     file=self.cursor.file, line=self.line, **kw)


def _dedent(line: str, width: int) -> str:
    stripped = line.lstrip(" ")
    return stripped if len(line) - len(stripped) <= width else line[width:]


_MCP_FIELD = re.compile(r'(\w+): "((?:[^"\\]|\\.)*)"')


def _mcp_argument(args: str, name: str) -> str | None:
    """A string argument of an MCP call as the CLI shows it: ``host: "gpu01", command: "nvidia-smi"``."""
    for key, value in _MCP_FIELD.findall(args):
        if key == name:
            return value.replace('\\"', '"').replace("\\\\", "\\")
    return None


# zeveck/claude-session-logger's Markdown log of a Claude Code session (py/log-converter.py,
# render_markdown and render_header) draws the same screen with Markdown around it: a title
# "# Session `b735bf9a` — 2026-02-16 10:30", "**User:**" then the prompt quoted ("> " each line),
# each call "● `Bash(<the command's first line, cut at 120>)`" (another tool "● `Read(path)`"), a
# short result "  ⎿  " under it ("  ⎿  **Error:** " where is_error), a result of more than 4 lines
# a <details> block whose <summary> is the call ("<b>Error:</b> " before it where is_error) and
# whose <pre><code> the HTML-escaped output. Its lines are turned into the /export's and read so.
_LOGGER_TITLE = re.compile(r"^# (?:Session `[^`\n]+`|Subagent: [^\n]+) — ")
_LOGGER_CALL = "● `"
_LOGGER_ERROR = "**Error:** "
_LOGGER_USER = "**User:**"


def looks_like_session_logger(head: list[str]) -> bool:
    """The logger's title first, and a call of its drawing in the head."""
    lines = [line for line in head[:_HEAD_LINES] if line.strip()]
    return bool(lines) and _LOGGER_TITLE.match(lines[0]) is not None \
        and any(line.startswith((_LOGGER_CALL, "<summary>● `", "<summary>&lt;b&gt;")) for line in lines[1:])


def session_logger_lines(lines: Iterable[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """The logger's lines as the ``/export`` draws them."""
    quoting = False  # inside the quote of a prompt
    code: str | None = None  # inside a <details> output: the mark its next line takes
    error = ""  # "Error: " where the <details> block's summary says its call failed
    for lineno, line, stamp in lines:
        if code is not None:
            end = line.find("</code></pre>")
            text = _unescaped(line if end < 0 else line[:end])
            yield lineno, code + text, stamp
            code = "     " if end < 0 else None
            continue
        if line.startswith(_LOGGER_USER):
            quoting = True
            continue
        if line.startswith("> "):
            yield lineno, ("> " if quoting else "  ") + line[2:], stamp
            quoting = False
            continue
        quoting = False
        if line.startswith("<summary>") and line.rstrip().endswith("</summary>"):
            summary = _unescaped(line.rstrip()[len("<summary>"):-len("</summary>")])
            failed = summary.startswith("<b>Error:</b> ")
            yield lineno, _logger_call(summary.removeprefix("<b>Error:</b> ")), stamp
            error = "Error: " if failed else ""
            continue
        if line.startswith("<pre><code>"):
            end = line.find("</code></pre>")
            text = _unescaped(line[len("<pre><code>"):] if end < 0 else line[len("<pre><code>"):end])
            yield lineno, f"  {_RESULT_MARK}  {error}{text}", stamp
            code = "     " if end < 0 else None
            continue
        if line.rstrip() in ("<details>", "</details>", "<br>"):
            continue
        if line.startswith(_LOGGER_CALL):
            yield lineno, _logger_call(line), stamp
            continue
        if line.startswith(f"  {_RESULT_MARK}  {_LOGGER_ERROR}"):
            line = f"  {_RESULT_MARK}  Error: " + line[len(f"  {_RESULT_MARK}  {_LOGGER_ERROR}"):]
        yield lineno, line, stamp


def _logger_call(line: str) -> str:
    """``● `Bash(ls)``` as ``⏺ Bash(ls)``."""
    inner = line[len(_LOGGER_CALL):].rstrip()
    return f"{_CALL_MARK} {inner[:-1] if inner.endswith('`') else inner}"


def _unescaped(text: str) -> str:
    """The logger's _escape_html undone (it escapes &, < and > only)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") if "&" in text else text
