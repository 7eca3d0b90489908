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
from spec_debug.session.formats.common import (
    Cursor,
    remote_host,
    shell_command,
    tool_path,
)
from spec_debug.session.formats.gemini_cli import response_text, shell_result
from spec_debug.session.reader import iter_json_records

_SHELL_TOOLS = frozenset({"run_shell_command"})
_RECORD_TYPES = frozenset({"user", "assistant", "tool_result", "system"})


def looks_like(obj: dict) -> bool:
    """A record whose ``message`` is Gemini ``Content`` (``parts``, not ``content``)."""
    message = obj.get("message")
    kind = obj.get("type")
    return isinstance(kind, str) and kind in _RECORD_TYPES and isinstance(obj.get("sessionId"), str) \
        and isinstance(message, dict) \
        and isinstance(message.get("parts"), list) and "content" not in message


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    shell_calls: set[str] = set()
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        kind = obj.get("type")
        message = obj.get("message") if isinstance(obj.get("message"), dict) else {}
        parts = [p for p in message.get("parts", ()) if isinstance(p, dict)] \
            if isinstance(message.get("parts"), list) else []
        if kind == "user":
            text = "\n".join(p["text"] for p in parts if isinstance(p.get("text"), str))
            yield event("prompt", "user", text=text) if text.strip() else event("other", "user", raw_type="user")
        elif kind == "assistant":
            yield from _reply(parts, event, shell_calls)
        elif kind == "tool_result":
            info = obj.get("toolCallResult") if isinstance(obj.get("toolCallResult"), dict) else {}
            yield from _results(parts, event, shell_calls, failed=info.get("status") in ("error", "cancelled"),
                                call_id=info.get("callId") if isinstance(info.get("callId"), str) else None)
        elif kind == "system":
            subtype = obj.get("subtype")
            yield event("compaction" if subtype == "chat_compression" else "system", "system",
                        raw_type=f"system:{subtype}" if isinstance(subtype, str) else "system")
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(kind))


def _reply(parts: list[dict], event, shell_calls: set[str]) -> Iterator[Event]:
    if not parts:
        yield event("other", "assistant", raw_type="assistant")
    for block, part in enumerate(parts):
        call = part.get("functionCall")
        if isinstance(call, dict) and isinstance(call.get("name"), str):
            name, args = call["name"], call.get("args")
            call_id = call.get("id") if isinstance(call.get("id"), str) else None
            command = shell_command(args) if name in _SHELL_TOOLS or remote_host(args) else None
            if command is not None and call_id is not None:
                shell_calls.add(call_id)
            description = args.get("description") if isinstance(args, dict) \
                and isinstance(args.get("description"), str) else None
            yield event("tool_call", "assistant", block, tool_name=name, call_id=call_id, command=command,
                        description=description, path=tool_path(args), host=remote_host(args),
                        text=command or str(args)[:2000])
        elif isinstance(part.get("text"), str):
            yield event("thinking" if part.get("thought") is True else "text", "assistant", block, text=part["text"])
        else:
            yield event("other", "assistant", block, raw_type="part")


def _results(parts: list[dict], event, shell_calls: set[str], failed: bool, call_id: str | None) -> Iterator[Event]:
    """The results of one ``tool_result`` record; a part without its call's id (a ``{text}``
    part) answers the call ``toolCallResult.callId`` names."""
    record_call = call_id
    for block, part in enumerate(parts):
        found = response_text(part)
        if found is None:
            yield event("other", "tool", block, raw_type="part")
            continue
        text, error = found
        response = part.get("functionResponse")
        call_id = response.get("id") if isinstance(response, dict) and isinstance(response.get("id"), str) \
            else record_call
        code = None
        if call_id in shell_calls:
            text, code = shell_result(text)
        yield event("tool_result", "tool", block, call_id=call_id, text=text, exit_code=code,
                    is_error=failed or error or bool(code))
