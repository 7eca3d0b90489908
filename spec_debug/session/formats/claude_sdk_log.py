"""A log of the Claude Agent SDK's messages as Python prints them: a script that runs
``async for message in query(...)`` and logs ``print(message)`` (or ``f"[{now}] {message}"``)
writes one dataclass repr a line (anthropics/claude-agent-sdk-python ``src/claude_agent_sdk/
types.py``)::

    [2026-01-31T19:31:00.138584+00:00] AssistantMessage(content=[TextBlock(text='...'),
        ToolUseBlock(id='toolu_01...', name='Bash', input={'command': 'ls'})], model='claude-...',
        parent_tool_use_id=None, error=None)
    UserMessage(content=[ToolResultBlock(tool_use_id='toolu_01...', content='...', is_error=True)], ...)
    ResultMessage(subtype='success', duration_ms=..., is_error=False, num_turns=2, session_id=..., result='...')

These are the stream-json messages of Claude Code (``SystemMessage`` holds the init line's
``data``) in Python's spelling: each line is turned back into that record and read as Claude
Code's (:mod:`formats.claude_code`). A line is parsed with :mod:`ast` (literals and the SDK's
class names only, nothing is evaluated). Read as a text log, such a file gave no command and no
error; session loggers of the SDK parse these very lines (their tests quote them).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

MESSAGES = {"AssistantMessage": "assistant", "UserMessage": "user", "SystemMessage": "system",
            "ResultMessage": "result", "StreamEvent": "stream_event"}
"""The SDK's message classes and the stream-json ``type`` each one is."""
_BLOCKS = {"TextBlock": "text", "ThinkingBlock": "thinking", "ToolUseBlock": "tool_use",
           "ToolResultBlock": "tool_result", "ServerToolUseBlock": "server_tool_use"}
_PREFIX = r"(?:\[(?P<ts>[^\]]{8,40})\]\s*|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[^:\s]{0,80}:|(?P<logged>\d{4}-\d\d-\d\d[T ][\d:.,]{8,15}\S{0,12})[^\n(]{0,80}?[\s\]:]\s*)?"
"""What may come before the message: ``[timestamp] `` (the script's own stamp), or a logging line's
head (``2026-01-31 19:31:00,138 INFO agent: ``, Python's ``logging`` with ``%(asctime)s`` first;
``INFO:agent:``, the format ``logging.basicConfig()`` gives by default, ``BASIC_FORMAT`` =
``%(levelname)s:%(name)s:%(message)s`` in CPython ``Lib/logging/__init__.py``). The
time's zone (``Z``, ``+00:00``) is bounded: unbounded, a long line that starts with a date and has
no space took seconds to refuse, and every text log's first 200 lines are tried."""
_LINE = re.compile(r"^" + _PREFIX + r"(?P<name>[A-Z][A-Za-z]+Message|StreamEvent)\(")
"""A message line: the class name at its start, after an optional prefix."""
_SNIFF = re.compile(r"^" + _PREFIX + r"(?:AssistantMessage\(content=|UserMessage\(content=|"
                    r"SystemMessage\(subtype=|ResultMessage\(subtype=)")


def looks_like(head: list[str]) -> bool:
    """Two of the first lines are the SDK's messages (one line alone may be quoted in a note)."""
    return sum(1 for line in head if _SNIFF.match(line)) >= 2


def read_lines(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    return claude_code.recorded_statuses(
        claude_code.link_records(claude_code.parse_records(_records(lines, cursor, stats), cursor, stats), cursor))


def _records(lines: Iterator[tuple[int, str, str | None]], cursor: Cursor,
             stats: ReadStats) -> Iterator[tuple[int, int, dict]]:
    """``(index, line, record)``: lines that are no message (the script's own prints) are passed by;
    a message line that does not parse (cut) is counted as broken."""
    index = 0
    for lineno, line, _ in lines:
        found = _message_line(line)
        if found is None:
            continue
        record = _record(line[found.start("name"):])
        if record is None:
            stats.broken_json += 1
            continue
        stamp = found.group("ts") or _iso(found.group("logged"))
        if stamp:
            record.setdefault("timestamp", stamp)
        yield index, lineno, record
        index += 1
        cursor.records = index


def other_lines(lines: Iterator[tuple[int, str, str | None]]) -> Iterator[tuple[int, str, str | None]]:
    """The lines that are no message: the script's own prints, the shell around it."""
    for line in lines:
        if _message_line(line[1]) is None:
            yield line


def _message_line(line: str) -> re.Match | None:
    """The match of a line that is one of the SDK's messages (its class name after the prefix)."""
    found = _LINE.match(line)
    return found if found is not None and found.group("name") in MESSAGES else None


def _iso(logged: str | None) -> str | None:
    """``2026-01-31 19:31:00,138`` (logging's asctime: local time, milliseconds after a comma) as
    ``2026-01-31T19:31:00.138``."""
    return logged.replace(" ", "T", 1).replace(",", ".", 1) if logged else None


def _record(text: str) -> dict | None:
    try:
        node = ast.parse(text.strip(), mode="eval").body
        value = _value(node)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        # TypeError: an unhashable key or set member ({[1]: 2}, {1, [2]}), which a cut or
        # hand-edited line may hold; untrusted text is a skipped line, never a traceback
        return None
    return _as_stream_json(value) if isinstance(value, _Call) else None


class _Call(dict):
    """A class's repr, ``Name(key=value, ...)``: its keyword values, and its name."""

    name = ""


def _value(node: ast.AST):
    """A literal, or an SDK dataclass's repr as a :class:`_Call`; anything else is refused."""
    if isinstance(node, ast.Constant):
        # the leaves, most of a line's nodes: taken here, not by literal_eval, whose nested
        # functions (its _convert refers to itself) make a reference cycle on every call: ~30
        # a line, garbage only the full collections free, so a 50 MB log peaked near 1 GB
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value  # a negative number (timeout=-1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args:
        call = _Call((kw.arg, _value(kw.value)) for kw in node.keywords if kw.arg)
        call.name = node.func.id
        return call
    if isinstance(node, ast.List):
        return [_value(v) for v in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_value(v) for v in node.elts)
    if isinstance(node, ast.Dict):
        return {(_value(k) if k is not None else None): _value(v) for k, v in zip(node.keys, node.values)}
    return ast.literal_eval(node)


def _as_stream_json(call: _Call) -> dict:
    """The stream-json record an SDK message was made from."""
    kind = MESSAGES[call.name] if call.name in MESSAGES else call.name
    if kind == "system":
        data = call.get("data") if isinstance(call.get("data"), dict) else {}
        return {"type": "system", "subtype": call.get("subtype"), **data}
    if kind in ("assistant", "user"):
        content = call.get("content")
        message = {"role": kind, "content": [_block(b) for b in content] if isinstance(content, list) else content}
        if isinstance(call.get("model"), str):
            message["model"] = call["model"]
        rest = {k: v for k, v in call.items() if k not in ("content", "model")}
        if kind == "assistant" and isinstance(call.get("error"), str) and call["error"]:
            # AssistantMessage.error ('rate_limit', 'server_error', 'authentication_failed'...): the
            # reply the CLI wrote in the model's place when the request failed, its isApiErrorMessage line
            rest["isApiErrorMessage"] = True
        return {**rest, "type": kind, "message": message}
    return {**call, "type": kind}


def _block(block):
    if isinstance(block, _Call):
        return {**block, "type": _BLOCKS.get(block.name, block.name)}
    return block  # already a dict (older SDKs kept tool results as the API's dicts)
