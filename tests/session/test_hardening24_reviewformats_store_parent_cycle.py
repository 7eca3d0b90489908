"""A store session whose parent is itself, or a cycle of parents (no Crush or OpenCode writes one; a
damaged or hand-edited store may hold one), was read neither as a session nor as a sub-agent: every
session of it dropped, and a store of such sessions alone refused as one that 'holds no session yet'.
Now such a session is read as a session, its sub-agents under it, as one whose parent is gone is."""

from __future__ import annotations

import importlib
import sqlite3

from spec_debug.session import analyze_path
from spec_debug.session.formats import crush

_STORE = importlib.import_module("tests.session.test_hardening24_formats_opencode_store")


def test_an_opencode_session_that_names_itself_its_parent_is_still_read(tmp_path):
    _, db = _STORE._home(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE session SET parent_id = id WHERE parent_id IS NULL")
    conn.commit()
    conn.close()
    doc = analyze_path(db).to_json()
    assert [s["id"] for s in doc["sessions"]] == [_STORE.SESSION]
    assert [c["agent"] for c in doc["commands"]] == ["main", "main", "main", _STORE.CHILD]


def test_a_cycle_of_parents_is_read_once_from_its_oldest_session():
    found = [crush.Session("a", None, "b"), crush.Session("b", None, "a"), crush.Session("c", None, None),
             crush.Session("d", None, "b")]
    assert [(s.id, [c.id for c in below]) for s, below in crush.linked(found)] == [("a", ["b", "d"]), ("c", [])]
