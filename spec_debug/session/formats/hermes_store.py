"""Hermes Agent's session store: the SQLite database ``~/.hermes/state.db`` (``$HERMES_HOME``) that
holds every session of its CLI and gateway (NousResearch/hermes-agent ``hermes_state.py``,
``SessionDB``; its tables in ``SCHEMA_SQL``, ``hermes_state_common.py`` in later releases).

Its ``sessions`` table has a row a session (``id`` such as ``20260102_101112_abcdef``, ``source``
``cli`` or a gateway's platform, ``model``, ``title`` in later schemas, ``started_at`` in epoch
seconds, ``parent_session_id`` for the continuation a compression started) and ``messages`` a row a
message, as the OpenAI chat messages the agent sent: ``role``, ``content`` (text), ``tool_calls``
(the assistant's calls as their JSON list), ``tool_call_id`` and ``tool_name`` (a tool's result),
``reasoning``, ``timestamp`` in epoch seconds. Hermes reads a session's messages ``ORDER BY
timestamp, id`` (``get_messages``); so are they read here, and every row is read, those a
compression or a rewind later set aside as well: the commands in them were run. A session a
compression ended and the one that took it on are one session (:func:`_continuations`).

The store is opened as Crush's is (:func:`formats.crush.open_read_only`): read-only, a copy kept
as evidence unchanged. Messages are read a row at a time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from spec_debug.session.agents import AgentInfo, AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats, Spawn
from spec_debug.session.formats import crush, openai_chat
from spec_debug.session.formats.common import Cursor, decode_arguments

DB_NAME = "state.db"
_MESSAGE_COLUMNS = {"session_id", "role", "content", "tool_calls", "tool_call_id"}
"""The columns of a Hermes store's ``messages`` table in every schema since the first; Goose's
has ``content_json`` instead, Crush's and OpenCode's neither."""


def sessions(path: Path) -> list[crush.Session]:
    """The sessions of a Hermes store, oldest first, each ``delegate_task`` sub-agent's with the
    session that delegated as its ``parent`` (:func:`_delegated`; the others none); a session a
    compression continued is read in the one it continued (:func:`_continuations`).
    :class:`crush.StoreError` when it is none or cannot be read."""
    try:
        conn = crush.open_read_only(path)
        try:
            session_cols = crush.columns(conn, "sessions")
            if "id" not in session_cols or not _MESSAGE_COLUMNS <= crush.columns(conn, "messages"):
                raise crush.StoreError("no Hermes sessions and messages tables")
            title = "title" if "title" in session_cols else "NULL"
            order = "started_at, rowid" if "started_at" in session_cols else "rowid"
            rows = conn.execute(f"SELECT id, {title} FROM sessions ORDER BY {order}").fetchall()
            continued = _continuations(conn, session_cols)
            delegated = _delegated(conn, session_cols, continued)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise crush.store_error(exc) from None
    return [crush.Session(str(i), t if isinstance(t, str) and t else None, delegated.get(str(i))) for i, t in rows
            if str(i) not in continued.values()]


def _delegated(conn: sqlite3.Connection, session_cols: set[str], continued: dict[str, str]) -> dict[str, str]:
    """Each ``delegate_task`` sub-agent's session, and the session it is read in: the one that
    delegated, or the session a compression of that one went on from. Hermes runs a sub-agent as a
    session of its own in the same store, ``source`` ``subagent`` (the child ``AIAgent``'s
    ``platform``) and ``parent_session_id`` the delegating session's (``tools/delegate_tool.py``).
    Read apart, it was a session beside the one that started it, its failure reaching no one; it
    is an agent of that session (as a Crush or OpenCode sub-agent's session is)."""
    if not {"parent_session_id", "source"} <= session_cols:
        return {}
    went_on_from = {child: parent for parent, child in continued.items()}
    found: dict[str, str] = {}
    for child, parent in conn.execute(
            "SELECT c.id, c.parent_session_id FROM sessions c JOIN sessions p ON c.parent_session_id = p.id "
            "WHERE c.source = 'subagent'"):
        parent, seen = str(parent), set()
        while parent in went_on_from and parent not in seen:  # (a cycle of a damaged store ends)
            seen.add(parent)
            parent = went_on_from[parent]
        if parent != str(child):
            found[str(child)] = parent
    return found


def session_ids(path: Path) -> set[str]:
    """The ids of every session of a Hermes store, the continuations a compression started as
    well: the files its ``sessions/`` folder holds of them (``session_<id>.json``, ``<id>.jsonl``)
    are copies of what the store holds. :class:`crush.StoreError` when it cannot be read."""
    try:
        conn = crush.open_read_only(path)
        try:
            return {str(i) for (i,) in conn.execute("SELECT id FROM sessions")}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise crush.store_error(exc) from None


def _continuations(conn: sqlite3.Connection, session_cols: set[str]) -> dict[str, str]:
    """Each session a compression ended, and the session that took it on: Hermes ends the session
    (``end_reason`` ``compression``) and goes on in a new one whose ``parent_session_id`` names it,
    its compressed history written there again (``hermes_state.py``: "compression splits sessions
    via parent_session_id chains"). Read apart, the turns kept through the compression were run
    twice; they are one conversation, read as one session (:func:`read`).

    A session names its parent in ``parent_session_id`` for other reasons too: a ``delegate_task``
    sub-agent is a session of the store (``platform="subagent"``, its ``source``) whose parent is
    the session that delegated (``tools/delegate_tool.py``), started while that one ran. Taken for
    the continuation (the first child started), a session that delegated and was compressed later
    went on with its sub-agent's talk, and its real continuation was a session of its own: the
    continuation is no sub-agent, and started when its parent ended."""
    if not {"parent_session_id", "end_reason"} <= session_cols:
        return {}
    order = "c.started_at, c.rowid" if "started_at" in session_cols else "c.rowid"
    other = " AND (c.source IS NULL OR c.source != 'subagent')" if "source" in session_cols else ""
    if {"started_at", "ended_at"} <= session_cols:
        other += " AND (p.ended_at IS NULL OR c.started_at >= p.ended_at - 1)"  # (a second for clocks' rounding)
    found: dict[str, str] = {}
    for parent, child in conn.execute(
            "SELECT p.id, c.id FROM sessions p JOIN sessions c ON c.parent_session_id = p.id "
            f"WHERE p.end_reason = 'compression'{other} ORDER BY {order}"):
        found.setdefault(str(parent), str(child))  # the first it started: the one that went on
    return found


def is_store(path: Path) -> bool:
    """``path`` is a Hermes store (its ``messages`` table has the columns only Hermes's has)."""
    try:
        conn = crush.open_read_only(path)
        try:
            return _MESSAGE_COLUMNS <= crush.columns(conn, "messages")
        finally:
            conn.close()
    except (sqlite3.Error, crush.StoreError):
        return False


def read_session(path: Path, session_id: str, children: list[crush.Session], cursor: Cursor, stats: ReadStats,
                 tree: AgentTree | None) -> Iterator[Event]:
    """The session's messages, then each ``delegate_task`` sub-agent's (:func:`_delegated`), an
    agent named by its session's id under the agent that delegated, linked to the call that
    started it (:class:`_Delegations`)."""
    delegations = _Delegations()
    for event in read(path, session_id, cursor, stats):
        delegations.see(event)
        yield event
    seq_base = cursor.seq_base + cursor.records
    for child in children:
        info = None
        if tree is not None:
            info = tree.get(child.id, parent=child.parent if child.parent != session_id else MAIN_AGENT)
            info.agent_type, info.description = "subagent", child.title or ""
            info.file = str(path)
        sub = Cursor(session=cursor.session, agent=child.id, file=cursor.file, seq_base=seq_base)
        prompted = info is None
        for event in read(path, child.id, sub, stats):
            if not prompted and event.kind == "prompt":
                prompted = True
                delegations.link(info, event.text or "", tree)
            delegations.see(event)  # (an orchestrator sub-agent delegates in turn)
            yield event
        seq_base += sub.records


_DELEGATE_TOOL = "delegate_task"
_ENDED = {"completed": "completed", "interrupted": "interrupted", "failed": "failed", "error": "failed",
          "timeout": "failed"}
"""A ``delegate_task`` result's ``status`` of a task (``_run_single_child``) as the agent's."""


class _Delegations:
    """The ``delegate_task`` calls read so far, to link each sub-agent to the call that started it.
    The store names the session that delegated (``parent_session_id``), not the call: the child
    ``AIAgent`` runs its task's ``goal`` as its first user message (``child.run_conversation(
    user_message=goal)``), and a call gives one goal (``goal``) or one a task (``tasks``, a list,
    the batch run side by side), so the sub-agent whose first prompt is a call's goal is that
    call's. Its ``status`` is the one the call's result gives its task (``results``, each with its
    ``task_index``): a sub-agent that ended without a summary (its turn limit) is ``failed`` there,
    and was ``completed`` here; one whose call has no result yet is ``running`` (as a Claude Code
    sub-agent whose spawn went unanswered: :attr:`AgentTree.unanswered`). Read unlinked, its
    failure reached no call of its parent's; the call is now a sub-agent's start, as Claude Code's
    ``Task`` is (:class:`Spawn`). Goals given twice are linked in the order the calls gave them (the
    sub-agents are read in the order they started)."""

    def __init__(self) -> None:
        self.goals: dict[str, list[tuple[str, int]]] = {}  # goal -> [(call id, task index)], in order
        self.calls: set[str] = set()
        self.ended: dict[str, dict[int, str]] = {}  # call id -> {task index: status}

    def see(self, event: Event) -> None:
        if event.tool_name == _DELEGATE_TOOL and event.kind == "tool_call" and event.call_id:
            goals = _goals(event.text)
            self.calls.add(event.call_id)
            for index, goal in enumerate(goals):
                self.goals.setdefault(goal, []).append((event.call_id, index))
            if goals:
                event.spawn = Spawn(description=goals[0][:200], agent_type="subagent")
        elif event.kind == "tool_result" and event.call_id in self.calls:
            self.ended[event.call_id] = _statuses(event.text) if event.text and '"results"' in event.text else {}

    def link(self, info: AgentInfo, prompt: str, tree: AgentTree | None) -> None:
        calls = self.goals.get(prompt.strip())
        if not calls:
            return
        call, index = calls.pop(0)
        info.spawned_by, info.description = call, info.description or prompt.strip()[:200]
        if call not in self.ended:
            if tree is not None:
                tree.unanswered.add(info.id)  # its call has no result: still running when the store was read
        elif (status := self.ended[call].get(index)) is not None:
            info.status = status


def _goals(arguments: str | None) -> list[str]:
    """The goals a ``delegate_task`` call gave, one a sub-agent, in the order of its tasks."""
    args = decode_arguments(arguments)
    if not isinstance(args, dict):
        return []
    tasks = args.get("tasks")
    if isinstance(tasks, str):  # the list sent as a JSON string (Hermes decodes it: _recover_tasks_from_json_string)
        tasks = decode_arguments(tasks)
    if isinstance(tasks, list) and tasks:
        return [t["goal"].strip() if isinstance(t, dict) and isinstance(t.get("goal"), str) else "" for t in tasks]
    goal = args.get("goal")
    return [goal.strip()] if isinstance(goal, str) and goal.strip() else []


def _statuses(result: str) -> dict[int, str]:
    """``{task index: agent status}`` of a ``delegate_task`` result (``{"results": [...]}``)."""
    found = decode_arguments(result)
    results = found.get("results") if isinstance(found, dict) else None
    statuses: dict[int, str] = {}
    for n, entry in enumerate(results if isinstance(results, list) else ()):
        if not isinstance(entry, dict) or entry.get("status") not in _ENDED:
            continue
        index = entry.get("task_index")
        statuses[index if isinstance(index, int) and not isinstance(index, bool) else n] = _ENDED[entry["status"]]
    return statuses


def read(path: Path, session_id: str, cursor: Cursor, stats: ReadStats) -> Iterator[Event]:
    """The session's messages as the chat messages they were, each event's line the message's row id."""
    def events(conn: sqlite3.Connection, read_rows: list[int]) -> Iterator[Event]:
        cols = crush.columns(conn, "messages")
        extra = [c for c in ("tool_name", "timestamp", "reasoning") if c in cols]
        chain = [session_id]
        continued = _continuations(conn, crush.columns(conn, "sessions"))
        while (nxt := continued.get(chain[-1])) is not None and nxt not in chain:
            chain.append(nxt)
        yield from openai_chat.read_messages(_chain(conn, chain, cols, extra, stats, read_rows), cursor, stats)

    yield from crush.read_store(path, stats, events)


def _chain(conn: sqlite3.Connection, chain: list[str], cols: set[str], extra: list[str], stats: ReadStats,
           read_rows: list[int]) -> Iterator[tuple[int, dict]]:
    """The rows of a session and of those that took it on after a compression, in order, each
    continuation without the copies it opens with: the history kept through the compression, its
    first turns before the summary and its latest after it (``agent/context_compressor.py``: the
    protected head, the summary, the protected tail). A row is a copy when the session before has
    the same one; the first that is not, after the summary, starts what is new."""
    order = "timestamp, id" if {"timestamp", "id"} <= cols else "rowid"
    query = (f"SELECT rowid, role, content, tool_calls, tool_call_id{''.join(', ' + c for c in extra)} "
             f"FROM messages WHERE session_id = ? ORDER BY {order}")
    before: set[int] = set()
    for session_id in chain:
        rows = conn.execute(query, (session_id,))
        seen: set[int] = set()
        copies = 2 if before else 0  # copies to pass by: the head's, then (after the summary) the tail's
        for row in rows:
            key = hash(row[1:5])
            seen.add(key)
            if copies and key in before:
                stats.lines += 1
                read_rows[0] += 1
                continue
            if copies:
                copies -= 1  # the summary (ends the head's copies), then the first new row (the tail's)
            yield from _messages((row,), extra, stats, read_rows)
        before = seen


def _messages(rows, extra: list[str], stats: ReadStats, read_rows: list[int]) -> Iterator[tuple[int, dict]]:
    """Each row as the chat message it was; ``tool_calls`` a JSON list, a row whose list is broken
    counted broken and read without its calls."""
    for rowid, role, content, calls, call_id, *more in rows:
        read_rows[0] += 1
        stats.lines += 1
        message: dict = {"role": role, "content": content}
        if calls:
            try:
                found = json.loads(calls) if isinstance(calls, (str, bytes)) else None
            except (ValueError, RecursionError):
                found = None
            if isinstance(found, list):
                message["tool_calls"] = found
            else:
                stats.broken_json += 1
        if call_id:
            message["tool_call_id"] = call_id
        for key, value in zip(extra, more):
            if value is not None:
                message["name" if key == "tool_name" else key] = value
        yield rowid, message
