"""Goose's session store: the SQLite database ``~/.local/share/goose/sessions/sessions.db`` that
holds every session since Goose left its one-JSONL-file-a-session layout (block/goose
``crates/goose/src/session/session_manager.rs``: ``DB_NAME``, ``create_schema``; the JSONL sessions
it imports on first start are read by :mod:`formats.openai_chat`).

Its ``sessions`` table has a row a session (``id`` such as ``20250513_1``, ``name`` or, in earlier
schemas, ``description``, ``working_dir``, ``created_at``) and ``messages`` a row a message
(``session_id``, ``role`` user or assistant, ``content_json`` the message's content list as the
JSONL sessions write it: ``text``, ``toolRequest``, ``toolResponse``, ...; ``created_timestamp``
in epoch seconds, ``metadata_json`` who sees the message, ``userVisible``/``agentVisible``). Goose
reads a session's messages ``ORDER BY timestamp`` (``get_conversation``); so are they read here,
the row id breaking ties within a second.

The store is opened as Crush's is (:func:`formats.crush.open_read_only`): read-only, a copy kept
as evidence unchanged. Messages are read a row at a time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats import crush, openai_chat
from spec_debug.session.formats.common import Cursor

DB_NAME = "sessions.db"
SESSIONS_DIR = "sessions"
HOME_STORE = Path(".local", "share", "goose", SESSIONS_DIR, DB_NAME)
"""Where Goose keeps it in a home folder (its XDG data folder, ``Paths::data_dir()``)."""


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    title: str | None
    parent: str | None = None
    """The session that started this sub-agent's (:data:`SUB_AGENT_NAME`, :func:`_delegations`);
    None for the others."""
    call: str | None = None
    """The call that started it, where the store tells (:func:`_delegations`)."""


def sessions(path: Path) -> list[Session]:
    """The sessions of a Goose store, oldest first; :class:`crush.StoreError` when it is none or
    cannot be read."""
    try:
        conn = crush.open_read_only(path)
        try:
            session_cols = crush.columns(conn, "sessions")
            message_cols = crush.columns(conn, "messages")
            if "id" not in session_cols or not {"session_id", "role", "content_json"} <= message_cols:
                raise crush.StoreError("no Goose sessions and messages tables")
            names = [c for c in ("name", "description") if c in session_cols]
            title = f"COALESCE(NULLIF({names[0]}, ''), {names[1]})" if len(names) == 2 else \
                names[0] if names else "NULL"
            order = "created_at, rowid" if "created_at" in session_cols else "rowid"
            rows = conn.execute(f"SELECT id, {title} FROM sessions ORDER BY {order}").fetchall()
            found = [Session(str(i), t if isinstance(t, str) and t else None) for i, t in rows]
            known = {s.id for s in found}
            found = [Session(s.id, s.title, parent) if (parent := _delegated_by(s.title)) in known
                     and parent != s.id else s for s in found]
            delegated = _delegations(conn, session_cols, {s.id for s in found if s.parent is None})
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise crush.store_error(exc) from None
    return [Session(s.id, s.title, *delegated[s.id]) if s.id in delegated else s for s in found]


def _delegations(conn: sqlite3.Connection, session_cols: set[str], unlinked: set[str]) -> dict[str, tuple[str, str]]:
    """``{sub-agent session: (session, call)}`` for the sub-agents of later releases, whose store
    names no parent: ``delegate`` (the summon extension) runs an ad-hoc task in a session of
    ``session_type`` ``sub_agent`` named "Delegated task", whose first user message is the recipe's
    prompt, the call's ``instructions`` (block/goose ``crates/goose/src/agents/platform_extensions/
    summon.rs``, ``build_adhoc_recipe``). The one call of another session whose ``instructions`` are
    a sub-agent's first prompt started it; a prompt no call gave, or more than one, links nothing."""
    if "session_type" not in session_cols:
        return {}
    children = [str(i) for (i,) in conn.execute("SELECT id FROM sessions WHERE session_type = 'sub_agent'")
                if str(i) in unlinked]
    if not children:
        return {}
    prompts: dict[str, list[str]] = {}
    for child in children:
        row = conn.execute("SELECT content_json FROM messages WHERE session_id = ? AND role = 'user' "
                           "ORDER BY rowid LIMIT 1", (child,)).fetchone()
        said = _texts(row[0]) if row else ""
        if said:
            prompts.setdefault(said, []).append(child)
    calls: dict[str, list[tuple[str, str]]] = {}
    for session, content in conn.execute("SELECT session_id, content_json FROM messages WHERE role = 'assistant' "
                                         "AND content_json LIKE '%\"instructions\"%'"):
        for call_id, instructions in _instructed(content):
            calls.setdefault(instructions, []).append((str(session), call_id))
    found: dict[str, tuple[str, str]] = {}
    for said, sessions_said in prompts.items():
        given = calls.get(said, [])
        if len(given) == 1 and len(sessions_said) == 1 and given[0][0] != sessions_said[0]:
            found[sessions_said[0]] = given[0]
    return found


def _texts(content) -> str:
    """The text blocks of a message's ``content_json``, stripped and joined."""
    parts = _json_list(content)
    return "\n".join(p["text"] for p in parts if isinstance(p, dict) and p.get("type") == "text"
                     and isinstance(p.get("text"), str)).strip()


def _instructed(content) -> list[tuple[str, str]]:
    """``(call id, instructions)`` of each call of a message's ``content_json`` that gives ``instructions``."""
    found = []
    for part in _json_list(content):
        call = part.get("toolCall") if isinstance(part, dict) and part.get("type") == "toolRequest" else None
        value = call.get("value") if isinstance(call, dict) else None
        args = value.get("arguments") if isinstance(value, dict) else None
        said = args.get("instructions") if isinstance(args, dict) else None
        if isinstance(said, str) and said.strip() and isinstance(part.get("id"), str):
            found.append((part["id"], said.strip()))
    return found


def _json_list(content) -> list:
    try:
        parts = json.loads(content) if isinstance(content, (str, bytes)) else None
    except (ValueError, RecursionError):
        return []
    return parts if isinstance(parts, list) else []


SUB_AGENT_NAME = "Subagent task for: "
"""How Goose names a sub-agent's session: ``format!("Subagent task for: {}", parent_session_id)``
(block/goose ``crates/goose/src/agents/subagent_handler.rs``, ``get_agent_messages``; its
``session_type`` ``sub_agent`` from the releases that have one). Later releases' ``delegate``
names it "Delegated task", no parent written (:func:`_delegations`)."""


def _delegated_by(name: str | None) -> str | None:
    """The session that started the sub-agent whose session is named ``name``, or None."""
    if name is None or not name.startswith(SUB_AGENT_NAME):
        return None
    return name[len(SUB_AGENT_NAME):].strip() or None


def read_session(path: Path, session_id: str, children: list[Session], cursor: Cursor, stats: ReadStats,
                 tree: AgentTree | None) -> Iterator[Event]:
    """The session's messages, then each sub-agent's (:data:`SUB_AGENT_NAME`), an agent named by its
    session's id under the agent that started it. Read apart, a sub-agent's session was a session
    beside the one that started it, its failed command reaching no one (as a Hermes, Crush or
    OpenCode sub-agent's session is read: :mod:`formats.hermes_store`)."""
    yield from read(path, session_id, cursor, stats)
    seq_base = cursor.seq_base + cursor.records
    for child in children:
        if tree is not None:
            info = tree.get(child.id, parent=child.parent if child.parent != session_id else MAIN_AGENT)
            info.agent_type, info.file, info.spawned_by = "subagent", str(path), child.call
        sub = Cursor(session=cursor.session, agent=child.id, file=cursor.file, seq_base=seq_base)
        yield from read(path, child.id, sub, stats)
        seq_base += sub.records


def read(path: Path, session_id: str, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    """The session's messages as the JSONL sessions' (``{role, created, content}``), each event's
    line the message's row id."""
    def events(conn: sqlite3.Connection, read_rows: list[int]) -> Iterator[Event]:
        cols = crush.columns(conn, "messages")
        order = "timestamp, rowid" if "timestamp" in cols else "rowid"
        when = "created_timestamp" if "created_timestamp" in cols else "NULL"
        meta = "metadata_json" if "metadata_json" in cols else "NULL"
        rows = conn.execute(f"SELECT rowid, role, content_json, {when}, {meta} FROM messages WHERE session_id = ? "
                            f"ORDER BY {order}", (session_id,))
        yield from openai_chat.read_messages(_messages(rows, stats, read_rows), cursor, stats)

    yield from crush.read_store(path, stats, events)


def _messages(rows: sqlite3.Cursor, stats: ReadStats, read_rows: list[int]) -> Iterator[tuple[int, dict]]:
    """Each row as the message the JSONL sessions write; a row whose content is no JSON list is
    counted broken and passed by."""
    for rowid, role, content, created, meta in rows:
        read_rows[0] += 1
        stats.lines += 1
        try:
            parts = json.loads(content) if isinstance(content, (str, bytes)) else None
        except (ValueError, RecursionError):
            parts = None
        if not isinstance(parts, list):
            stats.broken_json += 1
            continue
        message = {"role": role, "created": created, "content": parts}
        metadata = _metadata(meta)
        if metadata is not None:
            message["metadata"] = metadata  # who sees it: a compaction's summary is the model's alone
        yield rowid, message


def _metadata(raw) -> dict | None:
    try:
        found = json.loads(raw) if isinstance(raw, (str, bytes)) else None
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None
