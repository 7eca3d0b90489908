"""OpenCode's file storage, ``~/.local/share/opencode/storage/`` (sst/opencode): one JSON file per
session, message and part.

- ``session/<projectID>/<sessionID>.json``: the session ``{id: "ses_…", projectID, directory,
  title, version, time: {created, updated}}``;
- ``message/<sessionID>/<messageID>.json``: ``{id: "msg_…", sessionID, role: user | assistant,
  time: {created, completed?}, modelID?, …}``, no content;
- ``part/<messageID>/<partID>.json`` (older releases: ``part/<sessionID>/<messageID>/``): the
  content, ``{id: "prt_…", messageID, type, …}``: ``text{text, synthetic?}``, ``reasoning{text}``,
  ``tool{callID, tool, state: {status, input, output?, error?, metadata?, time}}`` and the
  bookkeeping ``step-start``, ``step-finish``, ``snapshot``, ``patch``, ``file``, ``agent``,
  ``compaction``. The bash tool's ``metadata`` is ``{output, exit, description}``, ``exit`` the
  process's exit code, null when it was killed (sst/opencode ``packages/opencode/src/tool/bash.ts``).

Ids sort in the order they were made (ascending ids), so messages and parts are read in name
order. The layout as an independent reader walks it: jazzyalex/agent-sessions
``AgentSessions/Services/OpenCodeSessionParser.swift``. Scanned as files, each message file was a
session of its own with nothing in it and no command (the content is in the parts).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats.common import (
    Cursor, attachments_shown, call_text, remote_host, shell_command, tool_path,
)
from spec_debug.session.formats.instants import stamp

STORAGE_FOLDERS = frozenset({"session", "message", "part"})
SHELL_TOOLS = frozenset({"bash", "shell"})
_BOOKKEEPING = frozenset({"step-start", "step-finish", "snapshot", "patch", "file", "agent", "compaction",
                          "subtask", "retry"})
_MAX_FILE = 64 << 20
"""A part bigger than this is not read (a part is one tool output: OpenCode cuts those far shorter)."""


def is_storage(folder: Path, folders: set[str] | None = None) -> bool:
    """``folder`` is OpenCode's ``storage/`` (its session, message and part folders)."""
    if folders is None:
        try:
            folders = {e.name for e in os.scandir(folder) if e.is_dir()}
        except OSError:
            return False
    return STORAGE_FOLDERS <= folders


def session_files(storage: Path) -> list[Path]:
    """Each session's file, ``session/<projectID>/ses_*.json``."""
    root = storage / "session"
    found = []
    for project in _sorted_entries(root):
        if project.is_dir():
            found.extend(p for p in _sorted_entries(project) if p.is_file() and p.suffix == ".json")
    return found


def looks_like(obj: dict) -> bool:
    """A session file: an id ``ses_…`` with its ``projectID`` and ``time``."""
    session_id = obj.get("id")
    return isinstance(session_id, str) and session_id.startswith("ses_") and "projectID" in obj \
        and isinstance(obj.get("time"), dict)


def storage_of(session_file: Path) -> Path:
    return session_file.parent.parent.parent


def parent_of(session_file: Path) -> str | None:
    """The session whose task call started this one (``parentID``; ``Session.create`` in
    ``packages/opencode/src/tool/task.ts``), None for a session the person started."""
    try:
        value = json.loads(session_file.read_bytes()) if session_file.stat().st_size <= _MAX_FILE else None
    except (OSError, ValueError, RecursionError):
        return None
    parent = value.get("parentID") if isinstance(value, dict) else None
    return parent if isinstance(parent, str) and parent else None


def read_session(path: Path, children: list[tuple[Path, str]], cursor: Cursor, stats: ReadStats,
                 tree: AgentTree | None) -> Iterator[Event]:
    """A session, then the sub-agent sessions its task calls started (``(session file, parent id)``,
    each after its parent), each an agent named by its session id and linked to the task call
    whose ``state.metadata.sessionId`` names it (:func:`note_task`)."""
    spawned: dict[str, str] = {}
    root = path.stem
    yield from read(path, cursor, stats, spawned)
    seq_base = cursor.seq_base + cursor.records
    for child, parent in children:
        if tree is not None:
            info = tree.get(child.stem, parent=MAIN_AGENT if parent == root else parent)
            info.spawned_by = spawned.get(child.stem)
            info.agent_type, info.file = "agent", str(child)
        sub = Cursor(session=cursor.session, agent=child.stem, file=str(child), seq_base=seq_base)
        yield from read(child, sub, stats, spawned)
        seq_base += sub.records


def note_task(part: dict, spawned: dict[str, str]) -> None:
    """A task call's sub-agent session, ``state.metadata.sessionId`` (``src/tool/task.ts``)."""
    if part.get("type") != "tool" or part.get("tool") != TASK_TOOL or not isinstance(part.get("callID"), str):
        return
    state = part.get("state") if isinstance(part.get("state"), dict) else {}
    metadata = state.get("metadata") if isinstance(state.get("metadata"), dict) else {}
    if isinstance(metadata.get("sessionId"), str):
        spawned.setdefault(metadata["sessionId"], part["callID"])


TASK_TOOL = "task"


def read(path: Path, cursor: Cursor, stats: ReadStats, spawned: dict[str, str] | None = None) -> Iterator[Event]:
    session = _load(path, stats) or {}
    session_id = session.get("id") if isinstance(session.get("id"), str) else path.stem
    storage = storage_of(path)
    seq = cursor.seq_base
    started = stamp(session.get("time", {}).get("created")) if isinstance(session.get("time"), dict) else None
    yield Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind="system",
                raw_type="session_meta", timestamp=started, file=str(path), line=1,
                text=f"directory={session.get('directory')} title={session.get('title')}")
    messages = _json_files(storage / "message" / session_id)
    if not messages:
        stats.missing_files.append(f"{storage / 'message' / session_id}: no messages")
    for message_file in messages:
        message = _load(message_file, stats)
        if message is None:
            continue
        role = message.get("role") if isinstance(message.get("role"), str) else "?"
        created = stamp(message["time"].get("created")) if isinstance(message.get("time"), dict) else None
        message_id = message.get("id") if isinstance(message.get("id"), str) else message_file.stem
        loaded = [(f, p) for f in _part_files(storage, session_id, message_id) if (p := _load(f, stats)) is not None]
        shown_at, shown = files_alone([p for _, p in loaded], role)
        for index, (part_file, part) in enumerate(loaded):
            seq += 1
            cursor.records = seq - cursor.seq_base + 1

            def event(kind, who, block=0, ts=created, **kw) -> Event:
                return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=who, kind=kind, block=block,
                             timestamp=ts or created, file=str(part_file), line=1, **kw)

            if spawned is not None:
                note_task(part, spawned)
            yield from part_events(part, role, event, stats, shown if index == shown_at else "")


def _part_files(storage: Path, session_id: str, message_id: str) -> list[Path]:
    files = _json_files(storage / "part" / message_id)
    return files or _json_files(storage / "part" / session_id / message_id)


def files_alone(parts: list[dict], role: str) -> tuple[int, str]:
    """A user message of attached files and no typed words (a pasted screenshot, a PDF sent alone):
    the index of its first ``file`` part and what was sent, ``[image shot.png]``, ``[file report.pdf]``
    (:func:`common.attachments_shown`), as OpenCode's TUI shows a message's files, a badge by
    ``mime`` and the ``filename`` (sst/opencode ``packages/opencode/src/cli/cmd/tui/routes/session/
    index.tsx`` ``UserMessage``, ``MIME_BADGE``); ``(-1, "")`` for any other message. Read part by
    part, such a message was no prompt at all: its file parts are bookkeeping and it has no text."""
    if role != "user":
        return -1, ""
    files = []
    for i, part in enumerate(parts):
        kind = part.get("type")
        if kind == "text" and part.get("synthetic") is not True and isinstance(part.get("text"), str) \
                and part["text"].strip():
            return -1, ""
        if kind == "file":
            files.append((i, part))
    if not files:
        return -1, ""
    shown = [{"type": _media(f.get("mime")), "filename": _file_name(f)} for _, f in files]
    return files[0][0], attachments_shown(shown)


def _media(mime) -> str:
    """The part type :func:`common.attachments_shown` names a file by: ``image`` for an image/*
    ``mime``, ``input_audio`` (shown ``[audio …]``; a bare ``audio`` type is none it knows, and the
    message was no prompt again) for audio/*, else ``file``."""
    kind = mime.split("/", 1)[0] if isinstance(mime, str) else ""
    return {"image": "image", "audio": "input_audio"}.get(kind, "file")


def _file_name(part: dict) -> str:
    """The name the file was sent with: ``filename``, else its ``source.path`` (an ``@`` mention)."""
    source = part.get("source") if isinstance(part.get("source"), dict) else {}
    return next((v for v in (part.get("filename"), source.get("path")) if isinstance(v, str) and v.strip()), "")


def part_events(part: dict, role: str, event, stats: ReadStats, shown: str = "") -> Iterator[Event]:
    """The events of one part of a message of ``role`` (also :mod:`formats.opencode_store`'s);
    ``shown`` the prompt of a message of files alone, given with its first file part (:func:`files_alone`)."""
    kind = part.get("type")
    if kind == "file" and shown:
        yield event("prompt", "user", text=shown)
        return
    if kind == "text":
        text = part.get("text") if isinstance(part.get("text"), str) else ""
        if not text.strip():
            return
        if role == "user":
            # a synthetic part is the CLI's (a file's contents it attached, a note), not typed
            yield event("system" if part.get("synthetic") is True else "prompt", "user", text=text)
        else:
            yield event("text", "assistant", text=text)
    elif kind == "reasoning":
        text = part.get("text") if isinstance(part.get("text"), str) else ""
        if text.strip():
            yield event("thinking", "assistant", text=text)
    elif kind == "tool":
        yield from _tool(part, event)
    elif kind == "subtask" and role == "user" and isinstance(part.get("prompt"), str) and part["prompt"].strip():
        # A command run as a sub-agent (`subtask: true`) is the user's message as this one part, its
        # template in `prompt`, and no text part (sst/opencode src/session/prompt.ts `command`,
        # message-v2.ts SubtaskPart): the prompt the person gave (was bookkeeping: no prompt)
        yield event("prompt", "user", text=part["prompt"])
    elif isinstance(kind, str) and kind in _BOOKKEEPING:
        return
    else:
        stats.unknown_types += 1
        yield event("other", role, raw_type=str(kind))


def _tool(part: dict, event) -> Iterator[Event]:
    name = part.get("tool") if isinstance(part.get("tool"), str) else "?"
    call_id = part.get("callID") if isinstance(part.get("callID"), str) else str(part.get("id"))
    state = part.get("state") if isinstance(part.get("state"), dict) else {}
    args = state.get("input") if isinstance(state.get("input"), dict) else {}
    command = shell_command(args) if name in SHELL_TOOLS or remote_host(args) else None
    times = state.get("time") if isinstance(state.get("time"), dict) else {}
    description = args.get("description") if isinstance(args.get("description"), str) else None
    yield event("tool_call", "assistant", ts=stamp(times.get("start")), tool_name=name, call_id=call_id,
                command=command, text=call_text(command, args), path=tool_path(args), description=description,
                host=remote_host(args) if command is not None else None)
    status = state.get("status")
    if status not in ("completed", "error"):
        return  # pending or running when the session was last written: no result yet
    metadata = state.get("metadata") if isinstance(state.get("metadata"), dict) else {}
    code = metadata.get("exit") if type(metadata.get("exit")) is int else None
    output = state.get("output") if isinstance(state.get("output"), str) else ""
    error = state.get("error") if isinstance(state.get("error"), str) else ""
    text = "\n".join(p for p in (output, error) if p)
    # A command the tool killed at its timeout ends "completed" with a null exit; only the note
    # it appends says so ("<bash_metadata>bash tool terminated command after exceeding timeout
    # 120000 ms", "shell tool ..." in newer releases: sst/opencode packages/opencode/src/tool/).
    killed = code is None and TIMED_OUT in output
    yield event("tool_result", "tool", 1, ts=stamp(times.get("end")), call_id=call_id, text=text,
                exit_code=code, is_error=status == "error" or bool(code) or killed)


TIMED_OUT = " tool terminated command after exceeding timeout "


def _sorted_entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return []


def _json_files(folder: Path) -> list[Path]:
    return [p for p in _sorted_entries(folder) if p.suffix == ".json" and p.is_file()]


def _load(path: Path, stats: ReadStats) -> dict | None:
    """One JSON file as a dict; a broken or unreadable one is counted and passed by."""
    stats.lines += 1
    try:
        if path.stat().st_size > _MAX_FILE:
            stats.too_long += 1
            return None
        value = json.loads(path.read_bytes())
    except OSError as exc:
        stats.damaged.append(f"{path.name}: cannot be read ({exc.strerror or exc})")
        return None
    except (ValueError, RecursionError):
        stats.broken_json += 1
        return None
    if not isinstance(value, dict):
        stats.non_object += 1
        return None
    return value
