"""OpenHands event streams (the V0 trajectory a session saves or ``--save-trajectory-path``
writes): a JSON list of events ``{id, timestamp, source: user|agent|environment, message}``,
an action (``action: message|run|run_ipython|read|edit|write|think|finish``, ``args``) or an
observation of one (``observation``, ``cause``: the action's id, ``content``, ``extras``), the
exit code of a command under ``extras.metadata.exit_code`` or, in older streams,
``extras.exit_code`` (All-Hands-AI/OpenHands ``tests/runtime/trajs/basic.json``; TRANSCRIPTS.md
section 1c).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats.common import Cursor, remote_host
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import iter_json_array, iter_json_records

_FILE_TOOLS = {"read": "Read", "edit": "Edit", "write": "Write"}
"""File actions under the names the analysis knows file tools by (Claude Code's)."""
_QUIET = frozenset({"agent_state_changed", "null", "recall", "condensation", "change_agent_state", "think",
                    "system", "mcp"})


def looks_like(obj: dict) -> bool:
    return isinstance(obj.get("id"), int) and isinstance(obj.get("source"), str) and (
        isinstance(obj.get("action"), str) or isinstance(obj.get("observation"), str))


_WRAPPED = re.compile(rb'^\{\s*"trajectory"\s*:\s*\[\s*\{')
_EVENT_KEYS = re.compile(rb'"source"\s*:\s*"(?:user|agent|environment)"')


def looks_wrapped(head: bytes) -> bool:
    """The trajectory as OpenHands' server hands it out, ``GET /api/conversations/{id}/trajectory``
    (what the UI's trajectory download and API clients save): ``{"trajectory": [events]}``
    (All-Hands-AI/OpenHands ``openhands/server/routes/trajectory.py``). Judged on the head of
    the file, whose first event may be cut by the sniff window."""
    return _WRAPPED.match(head) is not None and _EVENT_KEYS.search(head, 0, 16384) is not None


def read(path: Path, cursor: Cursor, stats: ReadStats, *, wrapped: bool = False) -> Iterator[Event]:
    records = iter_json_array(path, stats, key="trajectory") if wrapped else iter_json_records(path, stats)
    for index, lineno, obj in records:
        cursor.records = index + 1
        yield from record_events(obj, cursor, cursor.seq_base + index, cursor.file, lineno, stats)


def record_events(obj: dict, cursor: Cursor, seq: int, file: str, lineno: int, stats: ReadStats) -> Iterator[Event]:
    """The events of one OpenHands event record (from a trajectory, or a file of its own in a
    conversation's ``events/`` folder: :mod:`formats.openhands_sdk`)."""
    ts = stamp(obj.get("timestamp"))
    source = obj.get("source") if isinstance(obj.get("source"), str) else ""

    def event(kind, role, block=0, **kw) -> Event:
        return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                     block=block, timestamp=ts, file=file, line=lineno, **kw)

    args = obj.get("args") if isinstance(obj.get("args"), dict) else {}
    if isinstance(obj.get("action"), str):
        yield from _action(obj["action"], obj, args, source, event, stats)
    elif isinstance(obj.get("observation"), str):
        yield from _observation(obj["observation"], obj, event, stats)
    else:
        stats.unknown_types += 1
        yield event("other", "system", raw_type=None)


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _action(action: str, obj: dict, args: dict, source: str, event, stats: ReadStats) -> Iterator[Event]:
    call_id = str(obj["id"]) if isinstance(obj.get("id"), int) else None
    thought = _text(args.get("thought")).strip()
    metadata = obj.get("tool_call_metadata") if isinstance(obj.get("tool_call_metadata"), dict) else {}
    tool = _text(metadata.get("function_name"))
    if action == "message":
        text = _text(args.get("content")) or _text(obj.get("message"))
        yield event("prompt", "user", text=text) if source == "user" else event("text", "assistant", text=text)
    elif action in ("think", "finish"):
        text = thought or _text(args.get("final_thought")) or _text(obj.get("message"))
        yield event("thinking" if action == "think" else "text", "assistant", text=text)
    elif action in ("run", "run_ipython") or action in _FILE_TOOLS:
        block = 0
        if thought:
            yield event("text", "assistant", text=thought)
            block = 1
        if action == "run":
            command = _text(args.get("command")) or None
            yield event("tool_call", "assistant", block, tool_name=tool or "execute_bash", call_id=call_id,
                        command=command, text=command or "", host=remote_host(args) if command else None)
        elif action == "run_ipython":
            yield event("tool_call", "assistant", block, tool_name=tool or "execute_ipython_cell", call_id=call_id,
                        text=_text(args.get("code")))
        else:
            path = _text(args.get("path")) or None
            yield event("tool_call", "assistant", block, tool_name=_FILE_TOOLS[action], call_id=call_id, path=path,
                        text=path or "")
    else:
        if action not in _QUIET:
            stats.unknown_types += 1
        yield event("other", "system", raw_type=f"action:{action}")


def _observation(observation: str, obj: dict, event, stats: ReadStats) -> Iterator[Event]:
    cause = obj.get("cause")
    call_id = str(cause) if isinstance(cause, int) else None
    content = _text(obj.get("content")) or _text(obj.get("message"))
    if observation in ("run", "run_ipython", "error") or observation in _FILE_TOOLS:
        extras = obj.get("extras") if isinstance(obj.get("extras"), dict) else {}
        meta = extras.get("metadata") if isinstance(extras.get("metadata"), dict) else {}
        code = meta.get("exit_code", extras.get("exit_code"))
        # -1: the command did not end (timed out, still running, or interrupted)
        code = code if type(code) is int and code >= 0 else None
        yield event("tool_result", "tool", call_id=call_id, text=content, exit_code=code,
                    is_error=observation == "error" or code not in (None, 0))
    else:
        if observation not in _QUIET:
            stats.unknown_types += 1
        yield event("other", "system", raw_type=f"observation:{observation}")
