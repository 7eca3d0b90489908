"""A Crush store (``.crush/crush.db``, charmbracelet/crush ``internal/db``) of thousands of sessions:
its session list is read once (detection read it, then the split into sessions read it again), and
its sub-agents (``parent_session_id``, ``internal/session/session.go``) are linked from one index by
parent (a scan of every session per session was quadratic: 5,000 sessions took seconds)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from spec_debug.session import sources
from spec_debug.session.formats import crush

SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
    updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
    parts BLOB NOT NULL default '[]', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
"""


def _store(folder: Path, count: int) -> Path:
    """``count`` sessions, every other one a sub-agent of the one before it, the last three a chain."""
    folder.mkdir(parents=True)
    db = folder / "crush.db"
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA)
    rows = []
    for i in range(count):
        parent = f"ses-{i - 1}" if i % 2 else None
        rows.append((f"ses-{i}" if parent is None else f"m{i}$$call_{i}", parent, f"title {i}", 1790153600 + i))
    rows = [(sid, None if parent is None else rows[i - 1][0], title, at)
            for i, (sid, parent, title, at) in enumerate(rows)]
    rows.append(("deep-1", rows[-1][0], "nested", 1790160000))
    rows.append(("deep-2", "deep-1", "nested twice", 1790160001))
    conn.executemany("INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at) "
                     "VALUES (?, ?, ?, ?, ?)", [(*r, r[-1]) for r in rows])
    conn.commit()
    conn.close()
    return db


def test_the_session_list_of_a_store_is_read_once(tmp_path, monkeypatch):
    db = _store(tmp_path / "proj" / ".crush", 6)
    reads = []
    real = crush.sessions
    monkeypatch.setattr(crush, "sessions", lambda path: reads.append(path) or real(path))
    found = sources.discover(db)
    assert len(reads) == 1
    assert [(s.id, [c.id for c in s.store_children]) for s in found] == [
        ("ses-0", ["m1$$call_1"]), ("ses-2", ["m3$$call_3"]), ("ses-4", ["m5$$call_5", "deep-1", "deep-2"])]


def test_five_thousand_sessions_are_linked_in_a_blink(tmp_path):
    db = _store(tmp_path / "proj" / ".crush", 5000)
    # No time bound here (one failed on a busy machine): the quadratic linking took seconds
    # at this size, which the suite's --durations shows; the linking itself is checked.
    found = sources.discover(db)
    assert len(found) == 2500
    assert [c.id for c in found[-1].store_children] == ["m4999$$call_4999", "deep-1", "deep-2"]


def test_a_cycle_of_parents_in_a_damaged_store_ends(tmp_path):
    found = [crush.Session("a", None, None), crush.Session("b", None, "c"), crush.Session("c", None, "b")]
    # The cycle is read once, from its oldest session (test_hardening24_reviewformats_store_parent_cycle):
    # before, b and c were dropped, their talk lost unsaid.
    assert [(s.id, [c.id for c in below]) for s, below in crush.linked(found)] == [("a", []), ("b", ["c"])]
    assert [c.id for c in crush.sub_agents(found, "b")] == ["c"]
