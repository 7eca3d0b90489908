"""OpenCode's SQLite store, ``~/.local/share/opencode/opencode.db`` (``opencode-<channel>.db`` for a
channel other than latest and beta): where OpenCode keeps its sessions since it left the JSON file
storage :mod:`formats.opencode` reads (anomalyco/opencode, formerly sst/opencode,
``packages/opencode/src/storage/db.ts`` ``getChannelPath``; its first start copies ``storage/`` into
the store and leaves the files, ``src/storage/json-migration.ts``).

The tables (``packages/opencode/src/session/session.sql.ts``): ``session`` a row a session (``id``
``ses_…``, ``parent_id`` the session whose task tool started it, ``title``, ``directory``,
``time_created`` in epoch ms), ``message`` a row a message (``session_id``, ``time_created``, ``data``
the message's JSON without its ``id`` and ``sessionID``: ``{role, time, modelID, …}``), ``part`` a row
a part (``message_id``, ``data`` the part's JSON without its ids: ``text``, ``reasoning``, ``tool``…,
read as the file storage's parts). Ids ascend in the order they were made, so messages are read by
time and id, a message's parts by id.

A sub-agent's session (``parent_id`` set) is read as an agent of the session that started it, linked
to the task tool call whose ``state.metadata.sessionId`` names it (``src/tool/task.ts``), as Crush's
sub-agents are (:func:`formats.crush.linked`). The store is opened read-only
(:func:`formats.crush.open_read_only`): a copy kept as evidence stays as it was.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from itertools import groupby
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, Event, ReadStats
from spec_debug.session.formats import crush, opencode
from spec_debug.session.formats.common import Cursor
from spec_debug.session.formats.instants import stamp

STORE_NAME = re.compile(r"opencode(?:-[A-Za-z0-9._-]+)?\.db")
"""``opencode.db``, or ``opencode-<channel>.db`` (``getChannelPath``)."""
HOME_DATA = Path(".local", "share", "opencode")
"""Where OpenCode keeps it in a home folder (``Global.Path.data``, the XDG data folder)."""


def sessions(path: Path) -> list[crush.Session]:
    """The sessions of an OpenCode store, oldest first, each with its parent session; :class:`crush.StoreError`
    when it is none or cannot be read."""
    try:
        conn = crush.open_read_only(path)
        try:
            session_cols = crush.columns(conn, "session")
            if not {"id", "parent_id"} <= session_cols \
                    or not {"id", "session_id", "data"} <= crush.columns(conn, "message") \
                    or not {"id", "message_id", "data"} <= crush.columns(conn, "part"):
                raise crush.StoreError("no OpenCode session, message and part tables")
            title = "title" if "title" in session_cols else "NULL"
            order = "time_created, id" if "time_created" in session_cols else "rowid"
            rows = conn.execute(f"SELECT id, {title}, parent_id FROM session ORDER BY {order}").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise crush.store_error(exc) from None
    return [crush.Session(str(i), t if isinstance(t, str) and t else None, p if isinstance(p, str) and p else None)
            for i, t, p in rows]


def read_session(path: Path, session_id: str, children: list[crush.Session], cursor: Cursor, stats: ReadStats,
                 tree: AgentTree | None) -> Iterator[Event]:
    """The session's messages, then each sub-agent's, an agent named by its session's id and linked
    to the task call that started it."""
    spawned: dict[str, str] = {}
    yield from read(path, session_id, cursor, stats, spawned)
    seq_base = cursor.seq_base + cursor.records
    for child in children:
        if tree is not None:
            info = tree.get(child.id, parent=child.parent if child.parent != session_id else MAIN_AGENT)
            info.spawned_by = spawned.get(child.id)
            info.agent_type, info.description = "agent", child.title or ""
            info.file = str(path)
        sub = Cursor(session=cursor.session, agent=child.id, file=cursor.file, seq_base=seq_base)
        yield from read(path, child.id, sub, stats, spawned)
        seq_base += sub.records


def read(path: Path, session_id: str, cursor: Cursor, stats: ReadStats,
         spawned: dict[str, str] | None = None) -> Iterator[Event]:
    """One session's parts, message by message; ``spawned`` gathers the sessions its task calls
    started (``{sessionId: callID}``). A row whose ``data`` is no JSON object is counted and passed by."""
    try:
        conn = crush.open_read_only(path)
    except crush.StoreError as exc:
        stats.damaged.append(f"{path.name}: cannot be read ({exc}); no message of it was read")
        return
    index = 0
    try:
        when = "m.time_created" if "time_created" in crush.columns(conn, "message") else "NULL"
        rows = conn.execute(
            f"SELECT m.id, {when}, m.data, p.id, p.data FROM message m JOIN part p ON p.message_id = m.id "
            f"WHERE m.session_id = ? ORDER BY {when}, m.id, p.id", (session_id,))
        # a message's parts are read together: one of files alone is said by them all (opencode.files_alone)
        for (msg_id, msg_created, msg_data), group in groupby(rows, key=lambda row: row[:3]):
            message = _data(msg_data, stats)
            role = message.get("role") if isinstance(message, dict) and isinstance(message.get("role"), str) else "?"
            created = stamp(msg_created)
            parts = [part for *_, part_data in group if (part := _data(part_data, stats)) is not None]
            shown_at, shown = opencode.files_alone(parts, role)
            for at, part in enumerate(parts):
                seq = cursor.seq_base + index
                index += 1
                cursor.records = index

                def event(kind, who, block=0, ts=created, **kw) -> Event:
                    return Event(session=cursor.session, seq=seq, agent=cursor.agent, role=who, kind=kind,
                                 block=block, timestamp=ts or created, file=cursor.file, line=index, **kw)

                if spawned is not None:
                    opencode.note_task(part, spawned)
                yield from opencode.part_events(part, role, event, stats, shown if at == shown_at else "")
    except sqlite3.Error as exc:
        stats.damaged.append(f"{path.name}: cannot be read past part {index} ({exc}); the parts before it were kept")
    finally:
        conn.close()


def _data(raw, stats: ReadStats) -> dict | None:
    stats.lines += 1
    try:
        value = json.loads(raw) if isinstance(raw, (str, bytes)) else None
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        stats.broken_json += 1
        return None
    return value

