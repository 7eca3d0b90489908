"""OpenHands conversations as the software-agent-sdk (OpenHands V1: the CLI, the agent server)
stores them: a folder ``<conversation id>/`` holding ``base_state.json`` and ``events/``, one
JSON file per event named ``event-<index, 5 or more digits>-<event id>.json``
(OpenHands/software-agent-sdk ``openhands-sdk/openhands/sdk/conversation/persistence_const.py``),
under ``~/.openhands/conversations/`` for the CLI. The V0 app's file store is laid out alike:
``sessions/<sid>/metadata.json`` and ``events/<id>.json``, each a V0 event
(All-Hands-AI/OpenHands ``openhands/storage/locations.py``; read by :mod:`formats.openhands`).

Each event is ``{kind, id, timestamp, source, ...}``
(``openhands-sdk/openhands/sdk/event/llm_convertible/``): ``MessageEvent`` (``llm_message``
``{role, content: [{type: text, text}]}``), ``ActionEvent`` (``thought``, ``action``,
``tool_name``, ``tool_call_id``), ``ObservationEvent`` (``observation``, ``tool_call_id``),
``AgentErrorEvent`` (``error``) and ``UserRejectObservation`` (``rejection_reason``). The
terminal tool's observation carries ``exit_code``, -1 while the command still runs
(``openhands-tools/openhands/tools/terminal/definition.py`` ``TerminalObservation``).

Read as one session each: its event files one by one, in index order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.events import Event, ReadStats
from spec_debug.session.formats import openhands
from spec_debug.session.formats.common import Cursor, block_text, remote_host, tool_path
from spec_debug.session.formats.instants import stamp
from spec_debug.session.reader import MAX_LINE_BYTES, without_lone_surrogates

EVENTS_DIR = "events"
_STATE_FILES = ("base_state.json", "metadata.json")
_EVENT_FILE = re.compile(r"^(?:event-(\d{5,})-[0-9A-Za-z-]{8,}|(\d+))\.json$")
_SHELL_TOOLS = frozenset({"terminal", "execute_bash", "bash"})
_SHELL_ACTIONS = frozenset({"TerminalAction", "ExecuteBashAction", "BashAction"})
_EDITOR_TOOLS = frozenset({"file_editor", "str_replace_editor"})
_QUIET = frozenset({"ConversationStateUpdateEvent", "PauseEvent", "TokenEvent", "CondensationRequest",
                    "StreamingDeltaEvent", "SecurityAnalyzerEvent"})


def is_conversation(folder: Path) -> bool:
    """``folder`` is a conversation: an ``events/`` folder of event files, beside
    ``base_state.json`` (V0: ``metadata.json``; a server may not have written it yet)."""
    events = folder / EVENTS_DIR
    if not events.is_dir():
        return False
    if any((folder / name).is_file() for name in _STATE_FILES):
        return True
    return any(_EVENT_FILE.match(p.name) for p in events.glob("*.json"))


def event_files(folder: Path) -> list[Path]:
    """The event files in the order they were written: by index, which is zero-padded to at
    least 5 digits and grows past them (V0: not padded at all), so not by name."""
    found = []
    for path in (folder / EVENTS_DIR).glob("*.json"):
        m = _EVENT_FILE.match(path.name)
        if m is not None and path.is_file():
            found.append((int(m.group(1) or m.group(2)), path))
    return [path for _, path in sorted(found)]


def read(folder: Path, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    for index, path in enumerate(event_files(folder)):
        cursor.records = index + 1
        stats.lines += 1
        stats.records += 1
        obj = _load(path, stats)
        if obj is None:
            continue
        seq = cursor.seq_base + index
        name = str(path)
        if "kind" not in obj and openhands.looks_like(obj):  # a V0 event
            yield from openhands.record_events(obj, cursor, seq, name, 1, stats)
            continue
        ts = stamp(obj.get("timestamp"))

        def event(kind, role, block=0, **kw) -> Event:
            return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=role, kind=kind,
                         block=block, timestamp=ts, file=name, line=1, **kw)

        yield from _events(obj, event, stats)


def _load(path: Path, stats: ReadStats) -> dict | None:
    try:
        if path.stat().st_size > MAX_LINE_BYTES:
            stats.too_long += 1
            return None
        obj = json.loads(path.read_bytes())
    except (ValueError, RecursionError):
        stats.broken_json += 1  # the event being written when the copy was taken
        return None
    if not isinstance(obj, dict):
        stats.non_object += 1
        return None
    return without_lone_surrogates(obj)


def _events(obj: dict, event, stats: ReadStats) -> Iterator[Event]:
    kind = obj.get("kind") if isinstance(obj.get("kind"), str) else ""
    source = obj.get("source") if isinstance(obj.get("source"), str) else ""
    call_id = obj.get("tool_call_id") if isinstance(obj.get("tool_call_id"), str) else None
    tool = obj.get("tool_name") if isinstance(obj.get("tool_name"), str) else "?"
    if kind == "MessageEvent":
        message = obj.get("llm_message") if isinstance(obj.get("llm_message"), dict) else {}
        role = message.get("role") if isinstance(message.get("role"), str) else source
        text = block_text(message.get("content"))
        if role == "user" and source == "user":
            yield event("prompt", "user", text=text)
        elif role == "assistant":
            yield event("text", "assistant", text=text)
        else:
            yield event("system", role or "system", text=text)
    elif kind == "ActionEvent":
        block = 0
        reasoning = obj.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning.strip():
            yield event("thinking", "assistant", block, text=reasoning)
            block += 1
        thought = block_text(obj.get("thought")).strip()
        if thought:
            yield event("text", "assistant", block, text=thought)
            block += 1
        action = obj.get("action") if isinstance(obj.get("action"), dict) else {}
        yield _call(action, tool, call_id, event, block)
    elif kind == "ObservationEvent":
        observation = obj.get("observation") if isinstance(obj.get("observation"), dict) else {}
        text = block_text(observation.get("content")) or _text(observation.get("output"))
        meta = observation.get("metadata") if isinstance(observation.get("metadata"), dict) else {}
        code = observation.get("exit_code", meta.get("exit_code"))
        code = code if type(code) is int and code >= 0 else None  # -1: still running (soft timeout)
        failed = observation.get("is_error") is True or code not in (None, 0)
        yield event("tool_result", "tool", call_id=call_id, text=text, exit_code=code, is_error=failed,
                    raw_type="running" if observation.get("exit_code") == -1 else None)
    elif kind == "AgentErrorEvent":
        yield event("tool_result", "tool", call_id=call_id, text=_text(obj.get("error")), is_error=True)
    elif kind == "UserRejectObservation":
        reason = _text(obj.get("rejection_reason")) or "rejected"
        yield event("tool_result", "tool", call_id=call_id, text=f"Action rejected: {reason}", is_error=True)
    elif kind == "SystemPromptEvent":
        yield event("system", "system", raw_type=kind)
    elif kind in ("Condensation", "CondensationSummaryEvent"):
        yield event("compaction", "system", raw_type=kind, text=_text(obj.get("summary")))
    else:
        if kind not in _QUIET:
            stats.unknown_types += 1
        yield event("other", "system", raw_type=kind or None)


def _call(action: dict, tool: str, call_id: str | None, event, block: int) -> Event:
    """The tool call an action is: a shell command for the terminal tool; a file read or edit
    for the editor, under the names the analysis knows file tools by (Claude Code's)."""
    action_kind = action.get("kind") if isinstance(action.get("kind"), str) else ""
    command = action.get("command") if isinstance(action.get("command"), str) else None
    if tool in _SHELL_TOOLS or action_kind in _SHELL_ACTIONS:
        if action.get("is_input") is True:
            command = None  # keys sent to the running command (C-c, an empty poll), not a command
        return event("tool_call", "assistant", block, tool_name=tool, call_id=call_id, command=command or None,
                     text=command or "", host=remote_host(action) if command else None)
    path = tool_path(action)
    if tool in _EDITOR_TOOLS:
        tool = {"view": "Read", "create": "Write"}.get(command or "", "Edit")
    return event("tool_call", "assistant", block, tool_name=tool, call_id=call_id, path=path,
                 text=path or json.dumps(action)[:2000])


def _text(value) -> str:
    return value if isinstance(value, str) else ""
