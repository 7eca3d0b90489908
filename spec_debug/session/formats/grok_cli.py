"""Grok CLI's sessions, ``~/.grok/sessions/<percent-encoded workdir>/<sessionId>/chat_history.jsonl``.

One record a line, each with a ``type`` (the record types an independent reader lists as checked
against 141 real sessions of CLI 1.0.0, ``chat_format_version: 1``: jazzyalex/agent-sessions
``AgentSessions/Services/GrokSessionParser.swift``):

- ``system{content}``, the system prompt;
- ``user{content: [text | image parts]}``, with ``prompt_index`` on a turn the person typed and
  ``synthetic_reason`` on one the CLI injected (an interrupt notice, context re-priming);
- ``assistant{content: str, model_id, tool_calls?: [{id, name, arguments: JSON string}]}``;
- ``reasoning{summary: [{text}], encrypted_content}``;
- ``tool_result{content: str, tool_call_id, images?}``;
- ``backend_tool_call{kind}``, a tool the server ran (web search), with no result line.

The records carry no time of their own; ``summary.json`` beside the file has the session's
``created_at``, given to its first record. ``updates.jsonl`` in the same folder re-encodes the
conversation as streaming updates, far larger: no session of its own (:mod:`sources`).
Read before as a Codex rollout (its ``reasoning`` line is a Codex item), the calls were lines of
an unknown type: no command at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import (
    Cursor,
    block_text,
    call_text,
    decode_arguments,
    exit_code_of,
    remote_host,
    shell_command,
    tool_path,
    trailing_exit_code,
)
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_records

TRANSCRIPT = "chat_history.jsonl"
JOURNAL = "updates.jsonl"
SIDECAR = "summary.json"
_SIDECAR_BYTES = 1 << 20


def looks_like(obj: dict) -> bool:
    """A record only Grok CLI writes: a user turn with ``prompt_index`` or ``synthetic_reason``,
    an assistant turn with ``model_id`` (Claude Code's turns have ``message``, OpenAI's a
    ``role``), a ``tool_result`` with ``tool_call_id`` and string content, a ``backend_tool_call``."""
    kind = obj.get("type")
    if "message" in obj or "role" in obj or "payload" in obj:
        return False
    if kind == "user":
        return "prompt_index" in obj or "synthetic_reason" in obj
    if kind == "assistant":
        return isinstance(obj.get("model_id"), str)
    if kind == "tool_result":
        return isinstance(obj.get("tool_call_id"), str) and isinstance(obj.get("content"), str)
    return kind == "backend_tool_call" and "kind" in obj


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    started = _created_at(path)
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = started if index == 0 else None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        yield from _record(obj, event, stats)


def _created_at(path: Path) -> str | None:
    """``created_at`` of the ``summary.json`` beside the transcript, when it is there and reads."""
    sidecar = path.parent / SIDECAR
    try:
        if not sidecar.is_file() or sidecar.stat().st_size > _SIDECAR_BYTES:
            return None
        value = json.loads(sidecar.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return stamp(value.get("created_at")) if isinstance(value, dict) else None


def _record(obj: dict, event, stats: ReadStats) -> Iterator[Event]:
    kind = obj.get("type")
    if kind == "system":
        yield event("system", "system", raw_type="system", text=block_text(obj.get("content"))[:2000])
    elif kind == "user":
        typed = "prompt_index" in obj and "synthetic_reason" not in obj
        yield event("prompt" if typed else "system", "user", text=block_text(obj.get("content")))
    elif kind == "reasoning":
        summary = obj.get("summary") if isinstance(obj.get("summary"), list) else []
        yield event("thinking", "assistant", text=block_text(summary))
    elif kind == "assistant":
        yield from _reply(obj, event)
    elif kind == "tool_result":
        text = obj.get("content") if isinstance(obj.get("content"), str) else block_text(obj.get("content"))
        code = exit_code_of(text)
        if code is None:
            code = trailing_exit_code(text)
        call_id = obj.get("tool_call_id") if isinstance(obj.get("tool_call_id"), str) else None
        yield event("tool_result", "tool", call_id=call_id, text=text, exit_code=code, is_error=bool(code))
    elif kind == "backend_tool_call":
        yield event("other", "assistant", raw_type="backend_tool_call", text=str(obj.get("kind"))[:500])
    else:
        stats.unknown_types += 1
        yield event("other", "system", raw_type=str(kind))


def _reply(obj: dict, event) -> Iterator[Event]:
    block = 0
    text = obj.get("content") if isinstance(obj.get("content"), str) else block_text(obj.get("content"))
    if text:
        yield event("text", "assistant", text=text)
        block += 1
    calls = obj.get("tool_calls") if isinstance(obj.get("tool_calls"), list) else []
    for n, call in enumerate(calls):
        if not isinstance(call, dict):
            continue
        name = call.get("name") if isinstance(call.get("name"), str) else "?"
        raw = call.get("arguments")
        args = decode_arguments(raw)
        command = shell_command(args) if isinstance(args, dict) else None
        call_id = call.get("id") if isinstance(call.get("id"), str) else f"call-{block}-{n}"
        yield event("tool_call", "assistant", block + n, tool_name=name, call_id=call_id, command=command,
                    text=call_text(command, raw), path=tool_path(args),
                    host=remote_host(args) if command is not None else None)
