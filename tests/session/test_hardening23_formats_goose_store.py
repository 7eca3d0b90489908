"""Goose's session store, ``~/.local/share/goose/sessions/sessions.db``: since Goose keeps its
sessions in SQLite, a session is a ``sessions`` row and its messages ``messages`` rows whose
``content_json`` is the content list its JSONL sessions wrote (block/goose
``crates/goose/src/session/session_manager.rs``: ``create_schema``, ``add_message``,
``get_conversation`` reading ``ORDER BY timestamp``; its first start imports the JSONL sessions and
leaves the files, ``import_legacy``). Before, the store named was refused as "cannot be read as
Crush's session store", and a scan of the sessions folder or of the home passed it by: no session,
no command. The first session here is the public Goose session of data_hardening20_formats
(SOURCE.md there) imported as Goose imports it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

REAL = Path(__file__).parent / "data_hardening20_formats" / "goose_session.jsonl"
SCHEMA = """
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (9);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
    accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
    schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT,
    tenant_id TEXT, user_id TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER,
    metadata_json TEXT);
"""
LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"


def _add(conn: sqlite3.Connection, session: str, role: str, content, created: int, at: str) -> None:
    conn.execute("INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, timestamp, "
                 "metadata_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (f"msg_{session}_{created}", session, role, content if isinstance(content, str) else
                  json.dumps(content), created, at, '{"userVisible":true,"agentVisible":true}'))


def _store(folder: Path, legacy: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "sessions.db"
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA)
    meta, *messages = [json.loads(line) for line in REAL.read_text(encoding="utf-8").splitlines()]
    conn.execute("INSERT INTO sessions (id, name, working_dir, created_at) VALUES (?, ?, ?, ?)",
                 ("20250513_1", meta["description"], meta["working_dir"], "2025-05-13 23:18:48"))
    for m in messages:
        _add(conn, "20250513_1", m["role"], m["content"], m["created"], "2025-05-13 23:19:00")
    conn.execute("INSERT INTO sessions (id, name, working_dir, created_at) VALUES "
                 "('20260923_2', 'eagle3 acceptance', '/work/spec', '2026-09-23 08:53:20')")
    call = {"type": "toolRequest", "id": "call_1", "toolCall": {"status": "success", "value": {
        "name": "developer__shell", "arguments": {"command": LAUNCH}}}}
    # a failed command as Goose's shell tool returns it (crates/goose-mcp/src/developer/shell.rs)
    failed = {"type": "toolResponse", "id": "call_1", "toolResult": {"status": "success", "value": {
        "content": [{"type": "text", "text": "ValueError: draft vocab 32000 != target 151936\n\n"
                                             "Command exited with code 1"}], "isError": True}}}
    # the second row's second-resolution timestamp ties with the first's: the row id keeps their order
    _add(conn, "20260923_2", "user", [{"type": "text", "text": "why is the draft never accepted?"}], 1790153600,
         "2026-09-23 08:53:20")
    _add(conn, "20260923_2", "assistant", [{"type": "text", "text": "Starting it."}, call], 1790153600,
         "2026-09-23 08:53:20")
    _add(conn, "20260923_2", "user", [failed], 1790153605, "2026-09-23 08:53:25")
    _add(conn, "20260923_2", "assistant", "{not json", 1790153606, "2026-09-23 08:53:26")
    conn.commit()
    conn.close()
    if legacy:
        (folder / "20250513_1.jsonl").write_bytes(REAL.read_bytes())  # left by the import
    return db


def test_a_goose_store_gives_each_session_with_its_commands_and_failures(tmp_path):
    db = _store(tmp_path / "sessions")
    before = db.read_bytes()
    doc = analyze_path(db).to_json()
    assert [(s["id"], s["title"]) for s in doc["sessions"]] == [
        ("20250513_1", "Debug memory leak in worker process"), ("20260923_2", "eagle3 acceptance")]
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"], c["timestamp"]) for c in doc["commands"]] == [
        ("ps aux | grep worker", None, None, False, "2025-05-13T23:18:54.000Z"),
        (LAUNCH, "gpu-3", 1, True, "2026-09-23T08:53:20.000Z")]
    second = doc["sessions"][1]
    assert (second["broken_json"], second["unknown_types"]) == (1, 0)
    assert db.read_bytes() == before and sorted(p.name for p in db.parent.iterdir()) == ["sessions.db"]


def test_the_sessions_folder_reads_each_session_once(tmp_path):
    """The JSONL file Goose imported into its store and left is the store's session, not a second one."""
    folder = tmp_path / "sessions"
    _store(folder, legacy=True)
    (folder / "20250101_1.jsonl").write_bytes(REAL.read_bytes())  # one never imported (a copy put there)
    ids = sorted(s.id for s in discover(folder))
    assert ids == ["20250101_1", "20250513_1", "20260923_2"]


def test_a_home_scan_finds_goose_s_store(tmp_path):
    home = tmp_path / "home"
    _store(home / ".local" / "share" / "goose" / "sessions", legacy=True)
    (home / ".local" / "share" / "other").mkdir(parents=True)
    (home / ".local" / "share" / "other" / "notes.jsonl").write_text('{"role": "user", "content": "x"}\n')
    assert sorted(s.id for s in discover(home)) == ["20250513_1", "20260923_2"]


def test_a_goose_store_forced_as_crush_is_refused_and_another_database_still_is(tmp_path):
    db = _store(tmp_path / "sessions")
    with pytest.raises(UsageError, match="a Goose session store, not crush"):
        discover(db, "crush")
    assert len(discover(db, "openai")) == 2
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(UsageError, match="cannot be read as Crush's session store"):
        discover(other)


def test_a_goose_shell_failure_in_a_jsonl_session_gives_its_exit_code(tmp_path):
    """Goose's shell tool ends a failed command's output with ``Command exited with code N``: before,
    the command failed with no exit code, in the JSONL sessions and the store alike."""
    lines = REAL.read_text(encoding="utf-8").splitlines()
    response = json.loads(lines[3])
    response["content"][0]["toolResult"] = {"status": "success", "value": {
        "content": [{"type": "text", "text": "ps: bad option\n\nCommand exited with code 7"}], "isError": True}}
    path = tmp_path / "20250513_1.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(response)]) + "\n", encoding="utf-8")
    [command] = analyze_path(path).to_json()["commands"]
    assert (command["exit_code"], command["is_error"]) == (7, True)
