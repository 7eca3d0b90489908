"""Factory Droid's headless output, ``droid exec --output-format stream-json``: one JSON event a line.

The events, as a client that runs ``droid exec`` parses them (BloopAI/vibe-kanban
``crates/executors/src/executors/droid/normalize_logs.rs``, ``DroidJson``), each with an epoch-ms
``timestamp`` and the run's ``session_id``:

- ``system{subtype, session_id, cwd?, tools?, model?}``;
- ``message{role, id, text}``;
- ``tool_call{id, messageId, toolId, toolName, parameters}`` (the shell tool is ``Execute``,
  ``parameters.command``);
- ``tool_result{id?, messageId, toolId, isError, value | error{type, message}}``: ``id`` may be
  missing, and the client pairs results with calls in the order the calls came; the Execute
  tool's ``value`` ends with ``[Process exited with code N]``;
- ``error{source, message}`` and ``completion{finalText, numTurns?, durationMs?}``.

Read as OpenAI chat before, its calls were lines of an unknown type: no command at all.
(Droid's saved sessions, ``~/.factory/sessions/<cwd slug>/<id>.jsonl``, are Anthropic content
blocks in ``{"type": "message", "message": {...}}`` lines, read by :mod:`formats.openai_chat`.)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, remote_host, shell_command, tool_path, trailing_exit_code
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_records

SHELL_TOOLS = frozenset({"Execute", "Bash", "Shell"})
_OPEN_CALLS = 4096
"""Calls still waiting for their result, at most (a stream cut short leaves some open for good)."""


def looks_like(obj: dict) -> bool:
    """An event only this stream writes: a ``tool_call`` with ``toolName``/``parameters``, a
    ``tool_result`` with ``isError`` and ``messageId``, a ``completion`` with ``finalText``, or a
    ``message`` with a ``text`` (not ``content``) and the run's ``session_id``. (Its ``system``
    line is shaped as Claude Code's stream-json init, so it tells nothing alone.)"""
    kind = obj.get("type")
    if kind == "tool_call":
        return isinstance(obj.get("toolName"), str) and "parameters" in obj and "messageId" in obj
    if kind == "tool_result":
        return isinstance(obj.get("isError"), bool) and "messageId" in obj and ("value" in obj or "error" in obj)
    if kind == "completion":
        return isinstance(obj.get("finalText"), str)
    if kind == "message":
        return isinstance(obj.get("text"), str) and isinstance(obj.get("role"), str) and "content" not in obj \
            and "session_id" in obj
    return False


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    open_calls: OrderedDict[str, bool] = OrderedDict()  # call id -> a shell call
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = stamp(obj.get("timestamp"))

        def event(kind, role, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         timestamp=ts, file=cursor.file, line=lineno, **kw)

        yield from _event(obj, event, open_calls, stats)


def _event(obj: dict, event, open_calls: OrderedDict[str, bool], stats: ReadStats) -> Iterator[Event]:
    kind = obj.get("type")
    if kind == "system":
        yield event("system", "system", raw_type="session_meta",
                    text=f"sessionId={obj.get('session_id')} model={obj.get('model')} cwd={obj.get('cwd')}")
    elif kind == "message" and isinstance(obj.get("text"), str):
        role = obj.get("role")
        if role == "user":
            yield event("prompt", "user", text=obj["text"])
        else:
            yield event("text", "assistant" if role == "assistant" else str(role), text=obj["text"])
    elif kind == "tool_call" and isinstance(obj.get("toolName"), str):
        yield _call(obj, event, open_calls)
    elif kind == "tool_result":
        yield _result(obj, event, open_calls)
    elif kind == "error":
        said = obj.get("message") if isinstance(obj.get("message"), str) else ""
        yield event("system", "system", raw_type="error", text=said)
    elif kind == "completion":
        if isinstance(obj.get("finalText"), str) and obj["finalText"].strip():
            yield event("text", "assistant", text=obj["finalText"])
        yield event("system", "system", raw_type="result:success", text=f"turns={obj.get('numTurns')}")
    else:
        stats.unknown_types += 1
        yield event("other", "system", raw_type=str(kind))


def _call(obj: dict, event, open_calls: OrderedDict[str, bool]) -> Event:
    name, args = obj["toolName"], obj.get("parameters")
    call_id = str(obj.get("id") or f"call-{len(open_calls)}")
    command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
    open_calls[call_id] = command is not None
    if len(open_calls) > _OPEN_CALLS:
        open_calls.popitem(last=False)
    return event("tool_call", "assistant", tool_name=name, call_id=call_id, command=command, path=tool_path(args),
                 host=remote_host(args) if command is not None else None, text=command or str(args)[:2000])


def _result(obj: dict, event, open_calls: OrderedDict[str, bool]) -> Event:
    """Paired by ``id`` when the result has one its call had, else with the oldest open call
    (the order the client pairs them in)."""
    given = obj.get("id")
    if isinstance(given, str) and given in open_calls:
        call_id, shell = given, open_calls.pop(given)
    elif open_calls:
        call_id, shell = open_calls.popitem(last=False)
    else:
        call_id, shell = (given if isinstance(given, str) else None), False
    value = obj.get("value")
    error = obj.get("error") if isinstance(obj.get("error"), dict) else {}
    text = value if isinstance(value, str) else str(error.get("message") or (value if value is not None else ""))
    code = trailing_exit_code(text) if shell else None
    failed = obj.get("isError") is True or bool(code)
    return event("tool_result", "tool", call_id=call_id, text=text, exit_code=code, is_error=failed)
