"""Qwen Code sessions (``~/.qwen/tmp/<project_id>/chats/<sessionId>.jsonl``).

Qwen Code, Gemini CLI's fork, appends one record a line (QwenLM/qwen-code
``packages/core/src/services/chatRecordingService.ts`` ``ChatRecord``): ``{uuid, parentUuid,
sessionId, timestamp, type: user|assistant|tool_result|system, cwd, version, gitBranch,
message: {role: user|model, parts}, usageMetadata, model, toolCallResult}``. The ``message`` is
the Gemini API ``Content`` as sent: ``{text}`` parts (``thought: true`` for reasoning),
``{functionCall: {id, name, args}}`` in the model's turns and ``{functionResponse: {id, name,
response: {output | error}}}`` in the tool results, whose shell report is Gemini CLI's
(:mod:`formats.gemini_cli`).

Its envelope is Claude Code's, so it was read as Claude Code: every record of an unknown kind,
no command and no error.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.gemini_parts import PartsReader, user_events
from spec_debug.session.reader import iter_json_records

_RECORD_TYPES = frozenset({"user", "assistant", "tool_result", "system"})
_BOOKKEEPING = frozenset({"ui_telemetry", "attribution_snapshot"})


def looks_like(obj: dict) -> bool:
    """A record whose ``message`` is Gemini ``Content`` (``parts``, not ``content``), or one of
    Qwen Code's ``system`` records, which carry a ``systemPayload`` (chat compression, a title,
    UI telemetry): those would otherwise count as Claude Code's when the format is sniffed."""
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _RECORD_TYPES or not isinstance(obj.get("sessionId"), str):
        return False
    message = obj.get("message")
    if kind == "system":
        return isinstance(obj.get("systemPayload"), dict) and message is None
    return isinstance(message, dict) and isinstance(message.get("parts"), list) and "content" not in message


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    parts_reader = PartsReader()
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        kind = obj.get("type")
        message = obj.get("message") if isinstance(obj.get("message"), dict) else {}
        parts = message.get("parts") if isinstance(message.get("parts"), list) else []
        if kind == "user":
            yield from user_events(parts, event, parts_reader)
        elif kind == "assistant":
            yield from parts_reader.reply(parts, event)
        elif kind == "tool_result":
            info = obj.get("toolCallResult") if isinstance(obj.get("toolCallResult"), dict) else {}
            yield from parts_reader.results(parts, event, failed=info.get("status") in ("error", "cancelled"),
                                            call_id=info.get("callId") if isinstance(info.get("callId"), str) else None)
        elif kind == "system":
            subtype = obj.get("subtype") if isinstance(obj.get("subtype"), str) else ""
            # ui_telemetry (one per API response) and attribution_snapshot are bookkeeping
            kind_of = "compaction" if subtype == "chat_compression" else "other" if subtype in _BOOKKEEPING else "system"
            yield event(kind_of, "system", raw_type=f"system:{subtype}" if subtype else "system")
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(kind))
