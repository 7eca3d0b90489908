"""Pi coding agent sessions (``~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl``).

Pi (badlogic/pi-mono ``packages/coding-agent``; OpenClaw keeps its agents' sessions in the same
shape) writes a header ``{type: "session", version, id, timestamp, cwd}``, then entries with
``id``/``parentId`` (``packages/coding-agent/docs/session.md``): ``message`` entries whose
``message`` is ``{role: user, content}``, ``{role: assistant, content: [text | thinking |
toolCall{id, name, arguments}], stopReason, errorMessage?}``, ``{role: toolResult, toolCallId,
toolName, content, isError}`` or ``{role: bashExecution, command, output, exitCode}`` (a ``!``
command the person ran), and ``compaction``, ``branch_summary``, ``model_change``,
``thinking_level_change``, ``session_info{name}``, ``label``, ``custom`` and ``custom_message``
entries. Its ``bash`` tool fails with the output and ``Command exited with code N``.

Read as Claude Code (a ``type`` and a ``message`` on each line), every line was of an unknown
type: no command, no result, no error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, block_text, remote_host, shell_command, tool_path
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_records

ROLES = frozenset({"user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"})
SHELL_TOOLS = frozenset({"bash"})
_EXITED = re.compile(r"Command exited with code (-?\d+)\s*\Z")
_BOOKKEEPING = frozenset({"model_change", "thinking_level_change", "label", "custom", "agent_start", "agent_end",
                          "turn_start", "turn_end", "message_start", "message_update"})
"""Also the events of ``pi --mode json`` other than the ends of messages and tool runs: the
stream's ``message_end`` holds the whole message, ``message_update`` only its deltas, and
``turn_end`` repeats what came before."""


def looks_like(obj: dict) -> bool:
    """The header (``session`` with a numeric ``version`` and a ``cwd``) or a ``message`` entry
    holding a message only Pi writes: a role of its own, an assistant turn with pi-ai's
    ``stopReason``/``api``, a user turn with its epoch-ms ``timestamp``. (Factory's Droid writes
    ``message`` entries too, with Anthropic content blocks and none of those.)"""
    kind = obj.get("type")
    if kind == "session":
        return isinstance(obj.get("id"), str) and isinstance(obj.get("version"), int) and "cwd" in obj
    if kind in ("tool_execution_start", "tool_execution_end"):  # pi --mode json
        return isinstance(obj.get("toolCallId"), str) and isinstance(obj.get("toolName"), str)
    message = obj.get("message")
    if kind not in ("message", "message_start", "message_end") or not isinstance(message, dict) \
            or (kind == "message" and "id" not in obj):
        return False
    role = message.get("role")
    if role == "assistant":
        return "stopReason" in message or "api" in message
    if role == "user":
        return isinstance(message.get("timestamp"), (int, float)) and not isinstance(message.get("timestamp"), bool)
    return isinstance(role, str) and role in ROLES


def read(path: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    shell_calls: set[str] = set()
    called: set[str] = set()
    folder: str | None = None  # the header's cwd, where every bash call runs
    for index, lineno, obj in iter_json_records(path, stats):
        cursor.records = index + 1
        seq = cursor.seq_base + index
        message = obj.get("message") if isinstance(obj.get("message"), dict) else None
        ts = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else \
            stamp(message.get("timestamp")) if message is not None else None

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=cursor.file, line=lineno, **kw)

        kind = obj.get("type")
        if kind in ("message", "message_end") and message is not None:
            for ev in _message(message, event, shell_calls, seq):
                if ev.kind == "tool_call":
                    if ev.call_id:
                        called.add(ev.call_id)
                    if ev.command and ev.host is None:
                        ev.cwd = folder
                yield ev
        elif kind in ("tool_execution_start", "tool_execution_end"):
            for ev in _execution(obj, kind, event, shell_calls, called):
                if ev.kind == "tool_call" and ev.command and ev.host is None:
                    ev.cwd = folder
                yield ev
        elif kind == "session":
            if isinstance(obj.get("cwd"), str) and obj["cwd"]:
                # Each bash call (the agent's, or a person's ``!`` command) is a new shell spawned in
                # the session's folder, whatever an earlier call's `cd` did (pi-mono
                # packages/coding-agent/src/core/tools/bash.ts: ``spawn(shell, [...args, command],
                # {cwd})`` with the session's cwd)
                folder = obj["cwd"]
            yield event("system", "system", raw_type="session_meta", text=f"id={obj.get('id')} cwd={obj.get('cwd')}")
        elif kind == "compaction":
            yield event("compaction", "system", raw_type="compaction", text=_text(obj.get("summary")))
        elif kind == "branch_summary":
            yield event("summary", "system", raw_type=kind, text=_text(obj.get("summary")))
        elif kind == "session_info" and _text(obj.get("name")).strip():
            yield event("system", "system", raw_type="custom-title", text=_text(obj.get("name")).strip())
        elif kind == "custom_message":
            yield event("system", "system", raw_type=kind, text=block_text(obj.get("content")))
        elif isinstance(kind, str) and kind in _BOOKKEEPING | {"session_info"}:
            yield event("other", "system", raw_type=kind)
        else:
            stats.unknown_types += 1
            yield event("other", "system", raw_type=str(kind))


def _execution(obj: dict, kind: str, event, shell_calls: set[str], called: set[str]) -> Iterator[Event]:
    """``pi --mode json``'s ``tool_execution_start{toolCallId, toolName, args}`` (a call, when the
    message that asked for it was not in the stream) and ``tool_execution_end{toolCallId,
    toolName, result: {content}, isError}`` (its result), as a run captured from pi 0.68.1 shows
    them (blake-hamm/beyond-vibes ``tests/fixtures/pi_dev_tool_output.jsonl``)."""
    call_id = str(obj.get("toolCallId"))
    name = _text(obj.get("toolName"))
    if kind == "tool_execution_start":
        if call_id in called or not name:
            yield event("other", "system", raw_type=kind)
            return
        called.add(call_id)
        yield from _reply({"content": [{"type": "toolCall", "id": call_id, "name": name,
                                        "arguments": obj.get("args")}]}, event, shell_calls)
        return
    result = obj.get("result")
    text = block_text(result.get("content")) if isinstance(result, dict) else block_text(result)
    yield from _message({"role": "toolResult", "toolCallId": call_id, "toolName": name,
                         "content": [{"type": "text", "text": text}], "isError": obj.get("isError") is True},
                        event, shell_calls, 0)


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _message(message: dict, event, shell_calls: set[str], seq: int) -> Iterator[Event]:
    role = message.get("role")
    if role == "user":
        text = block_text(message.get("content"))
        yield event("prompt", "user", text=text) if text.strip() else event("other", "user", raw_type="user")
    elif role == "assistant":
        yield from _reply(message, event, shell_calls)
    elif role == "toolResult":
        call_id = str(message.get("toolCallId"))
        text = block_text(message.get("content"))
        code = None
        if call_id in shell_calls or _text(message.get("toolName")) in SHELL_TOOLS:
            found = _EXITED.search(text[-200:])
            code = int(found.group(1)) if found else None
        yield event("tool_result", "tool", call_id=call_id, text=text, exit_code=code,
                    is_error=message.get("isError") is True or bool(code))
    elif role == "bashExecution":
        yield from _bash_execution(message, event, f"bash-execution-{seq}")
    elif role in ("branchSummary", "compactionSummary"):
        yield event("summary", "system", raw_type=role, text=_text(message.get("summary")))
    else:  # custom: an extension's message
        yield event("system", "system", raw_type=str(role), text=block_text(message.get("content")))


def _reply(message: dict, event, shell_calls: set[str]) -> Iterator[Event]:
    block = 0
    blocks = message.get("content") if isinstance(message.get("content"), list) else []
    for part in blocks:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "text" and _text(part.get("text")).strip():
            yield event("text", "assistant", block, text=part["text"])
        elif kind == "thinking" and _text(part.get("thinking")).strip():
            yield event("thinking", "assistant", block, text=part["thinking"])
        elif kind == "toolCall" and isinstance(part.get("name"), str):
            name, args = part["name"], part.get("arguments")
            call_id = str(part.get("id"))
            command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
            if command is not None:
                shell_calls.add(call_id)
            yield event("tool_call", "assistant", block, tool_name=name, call_id=call_id, command=command,
                        path=tool_path(args), host=remote_host(args), text=command or str(args)[:2000])
        else:
            continue
        block += 1
    if message.get("stopReason") == "error":
        # The model's API call failed: the turn ended there (pi-ai AssistantMessage.errorMessage)
        said = _text(message.get("errorMessage")) or "the model request failed"
        yield event("system", "system", block, raw_type="error", text=said)


def _bash_execution(message: dict, event, call_id: str) -> Iterator[Event]:
    """A ``!`` command the person ran in the TUI: a call and its result at once."""
    command = _text(message.get("command"))
    if not command.strip():
        return
    code = message.get("exitCode") if isinstance(message.get("exitCode"), int) else None
    yield event("tool_call", "user", 0, tool_name="bash", call_id=call_id, command=command, text=command,
                host=None)
    yield event("tool_result", "tool", 1, call_id=call_id, text=_text(message.get("output")), exit_code=code,
                is_error=bool(code) or message.get("cancelled") is True)
