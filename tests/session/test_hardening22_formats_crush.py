"""Crush's session store, ``<project>/.crush/crush.db``: SQLite with ``sessions`` and ``messages``
tables (charmbracelet/crush ``internal/db/migrations/20250424200609_initial.sql`` and the columns
later migrations add), each message's ``parts`` a JSON list of ``{type, data}`` (``marshalParts``,
``internal/message/message.go``), the bash tool's failures ending ``Exit code N`` then ``<cwd>``
(``formatOutput``, ``internal/agent/tools/bash.go``). Before: a folder scan passed it by and, named,
it was refused as binary: no session, no command."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"
SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0,
    updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
    parts BLOB NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    finished_at INTEGER, provider TEXT, is_summary_message INTEGER DEFAULT 0 NOT NULL);
"""


def _parts(*parts: tuple[str, dict]) -> str:
    return json.dumps([{"type": kind, "data": data} for kind, data in parts])


def _store(folder: Path) -> Path:
    folder.mkdir(parents=True)
    db = folder / "crush.db"
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO sessions (id, title, updated_at, created_at) VALUES "
                 "('ses-1', 'eagle3 acceptance', 1790153700, 1790153600)")
    conn.execute("INSERT INTO sessions (id, title, updated_at, created_at) VALUES "
                 "('ses-2', 'second', 1790153900, 1790153800)")
    rows = [
        ("m1", "ses-1", "user", _parts(("text", {"text": "why is the draft never accepted on gpu-3?"})), 1790153600),
        ("m2", "ses-1", "assistant", _parts(
            ("reasoning", {"thinking": "Start the server and read the error."}),
            ("text", {"text": "Starting the server."}),
            ("tool_call", {"id": "call_1", "name": "bash", "input": json.dumps({"command": LAUNCH}),
                           "finished": True}),
            ("finish", {"reason": "tool_use", "time": 1790153601})), 1790153601),
        ("m3", "ses-1", "tool", _parts(("tool_result", {
            "tool_call_id": "call_1", "name": "bash", "is_error": False,
            "content": "ValueError: draft vocab 32000 != target 151936\nExit code 1\n\n<cwd>/work/spec</cwd>",
            "metadata": json.dumps({"start_time": 1790153601000, "end_time": 1790153605000})})), 1790153605),
        ("m4", "ses-1", "user", _parts(("shell_command", {"command": "nvidia-smi", "output": "No devices were found",
                                                         "exit_code": 6})), 1790153606),
        ("m5", "ses-1", "assistant", _parts(("finish", {"reason": "error", "message": "Provider error",
                                                       "details": "429 Too Many Requests"})), 1790153607),
        ("m6", "ses-1", "user", "not json", 1790153608),
        ("m7", "ses-2", "user", _parts(("text", {"text": "and now?"})), 1790153800),
    ]
    conn.executemany("INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)", [(*r, r[-1]) for r in rows])
    conn.commit()
    conn.close()
    return db


def test_a_crush_store_gives_each_session_with_its_commands_exit_codes_and_failures(tmp_path):
    db = _store(tmp_path / "proj" / ".crush")
    before = db.read_bytes()
    doc = analyze_path(db).to_json()
    assert [(s["id"], s["format"], s["title"]) for s in doc["sessions"]] == [
        ("ses-1", "crush", "eagle3 acceptance"), ("ses-2", "crush", "second")]
    first = doc["sessions"][0]
    assert (first["first_timestamp"], first["broken_json"], first["unknown_types"]) == (
        "2026-09-23T08:53:20.000Z", 1, 0)
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (LAUNCH, "gpu-3", 1, True), ("nvidia-smi", None, 6, True)]
    assert [p["text"] for p in doc["prompts"]] == ["why is the draft never accepted on gpu-3?", "and now?"]
    assert any("429 Too Many Requests" in e["message"] for e in doc["errors"])
    assert db.read_bytes() == before  # opened read-only: not a byte changed


def test_a_project_scan_finds_the_store_in_its_crush_folder(tmp_path):
    _store(tmp_path / "proj" / ".crush")
    (tmp_path / "proj" / ".crush" / "logs").mkdir()
    (tmp_path / "proj" / ".crush" / "logs" / "crush.log").write_text('{"level":"INFO","msg":"started"}\n')
    # a project's .crush without a store (its config and logs only) is passed by, as other dot-folders are
    (tmp_path / "proj" / "sub" / ".crush" / "logs").mkdir(parents=True)
    (tmp_path / "proj" / "sub" / ".crush" / "logs" / "crush.log").write_text("$ ssh gpu-9 reboot\n")
    doc = analyze_path(tmp_path / "proj").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["ses-1", "ses-2"]
    assert not doc["hosts"] or "gpu-9" not in doc["hosts"]


def test_another_sqlite_database_is_refused_in_one_line(tmp_path):
    other = tmp_path / "app.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    with pytest.raises(UsageError, match="cannot be read as Crush's session store"):
        analyze_path(other)


def test_a_sub_agents_session_is_an_agent_of_the_session_that_started_it(tmp_path):
    db = _store(tmp_path / ".crush")
    conn = sqlite3.connect(db)
    # Crush's agent tool: the sub-agent's session is named <message id>$$<id of the call that started it>
    conn.execute("INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at) VALUES "
                 "('m2$$call_9', 'ses-1', 'check the GPUs', 1790153700, 1790153610)")
    conn.execute("INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                 ("s1", "m2$$call_9", "assistant", _parts(("tool_call", {
                     "id": "c1", "name": "bash", "input": json.dumps({"command": "ssh gpu-4 nvidia-smi"})})),
                  1790153611, 1790153611))
    conn.commit()
    conn.close()
    doc = analyze_path(db).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["ses-1", "ses-2"]
    sub = [(c["session"], c["agent"], c["host"]) for c in doc["commands"] if c["command"] == "ssh gpu-4 nvidia-smi"]
    assert sub == [("ses-1", "m2$$call_9", "gpu-4")]
    assert any(a["id"] == "m2$$call_9" and a["parent"] == "main" and a["spawned_by"] == "call_9" for a in doc["agents"])


def test_a_copied_store_in_wal_mode_is_read_without_files_appearing_beside_it(tmp_path):
    db = _store(tmp_path / "evidence")
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()  # the last connection's close checkpoints and removes the -wal and -shm files
    before = sorted(p.name for p in db.parent.iterdir())
    doc = analyze_path(db).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["ses-1", "ses-2"]
    assert sorted(p.name for p in db.parent.iterdir()) == before == ["crush.db"]
