"""Hermes Agent keeps every session of its CLI and gateway in ``~/.hermes/state.db``: a ``sessions``
row a session, a ``messages`` row a message as the OpenAI chat message it sent (``role``,
``content``, ``tool_calls`` as a JSON list, ``tool_call_id``, ``tool_name``, ``timestamp`` in epoch
seconds; NousResearch/hermes-agent ``hermes_state.py`` ``SCHEMA_SQL``, ``hermes_state_common.py`` in
later releases, which add ``title``, ``active``, ``display_*`` and more).

Before: ``spec-debug analyze ~/.hermes/state.db`` was refused ("an SQLite database that cannot be
read as Crush's session store, Goose's or OpenCode's"): the launch that ran out of memory was never
seen. Now each session of the store is a session, its calls commands with their exit status."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

FIRST_SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT,
    system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0, FOREIGN KEY (parent_session_id) REFERENCES sessions(id));
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
    token_count INTEGER, finish_reason TEXT);
"""
LATEST_SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (30);
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, created_source TEXT, user_id TEXT,
    session_key TEXT, model TEXT, model_config TEXT, system_prompt TEXT, system_prompt_hash TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, cwd TEXT, title TEXT,
    title_source TEXT, last_activity_at REAL, archived INTEGER NOT NULL DEFAULT 0, tool_names TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, effect_disposition TEXT,
    timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT, reasoning TEXT, reasoning_content TEXT,
    reasoning_details TEXT, codex_reasoning_items TEXT, codex_message_items TEXT, platform_message_id TEXT,
    observed INTEGER DEFAULT 0, _compressed_summary INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1,
    compacted INTEGER NOT NULL DEFAULT 0, api_content TEXT, display_kind TEXT, display_metadata TEXT,
    display_identity BLOB, display_order INTEGER);
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
"""
LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
OOM = ("Traceback (most recent call last):\n"
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
START = 1793606400.0  # 2026-11-02T08:00:00Z


def _store(path: Path, schema: str) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(schema)
    titled = "title" in schema
    for n, (sid, asked) in enumerate([("20261102_080000_0a1b2c", "start the EAGLE-3 server"),
                                      ("20261102_090000_3d4e5f", "check the GPUs")]):
        conn.execute(f"INSERT INTO sessions (id, source, model, started_at{', title' if titled else ''}) "
                     f"VALUES (?, 'cli', 'm', ?{', ?' if titled else ''})",
                     (sid, START + 3600 * n, *(["eagle server"] if titled else [])))
        command = LAUNCH if n == 0 else "nvidia-smi"
        output = {"output": OOM, "exit_code": 1, "error": None} if n == 0 else \
            {"output": "GPU 0: NVIDIA H100", "exit_code": 0, "error": None}
        rows = [("user", asked, None, None, None),
                ("assistant", "", None, json.dumps([{"id": f"call_{n}", "type": "function", "function": {
                    "name": "terminal", "arguments": json.dumps({"command": command})}}]), None),
                ("tool", json.dumps(output), f"call_{n}", None, "terminal"),
                ("assistant", "Done.", None, None, None)]
        for i, (role, content, call_id, calls, tool) in enumerate(rows):
            conn.execute("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, "
                         "timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (sid, role, content, call_id, calls, tool, START + 3600 * n + i))
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("schema", [FIRST_SCHEMA, LATEST_SCHEMA], ids=["first", "latest"])
def test_each_session_of_the_store_is_read_with_its_commands(tmp_path: Path, schema: str) -> None:
    db = _store(tmp_path / "state.db", schema)
    a = analyze_path(db)
    title = "eagle server" if schema is LATEST_SCHEMA else None
    assert [(s["id"], s["title"]) for s in a.sessions] == [
        ("20261102_080000_0a1b2c", title), ("20261102_090000_3d4e5f", title)]
    assert [(c.session, c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("20261102_080000_0a1b2c", LAUNCH, 1, True), ("20261102_090000_3d4e5f", "nvidia-smi", 0, False)]
    assert [(e.kind, e.message) for e in a.errors] == [("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB")]
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server", "check the GPUs"]
    assert a.commands[0].timestamp == "2026-11-02T08:00:01.000Z"


def test_another_database_is_still_refused_and_names_hermes(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE messages (id INTEGER, body TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(UsageError, match="Goose's, Hermes Agent's or OpenCode's") as refused:
        discover(other)
    assert "~/.hermes/state.db" in (refused.value.hint or "")


def test_a_session_a_compression_continued_is_one_session_its_kept_turns_read_once(tmp_path: Path) -> None:
    """Hermes ends a session when it compresses it (``end_reason`` ``compression``) and goes on in a
    new one (``parent_session_id``) that starts with the history it kept: the first prompt, the
    summary, the latest turns. Read as two sessions, the kept launch ran twice."""
    db = tmp_path / "state.db"
    conn = sqlite3.connect(db)
    conn.executescript(FIRST_SCHEMA)
    first, second = "20261102_080000_0a1b2c", "20261102_083000_4d5e6f"
    conn.execute("INSERT INTO sessions (id, source, started_at, end_reason) VALUES (?, 'cli', ?, 'compression')",
                 (first, START))
    conn.execute("INSERT INTO sessions (id, source, started_at, parent_session_id) VALUES (?, 'cli', ?, ?)",
                 (second, START + 1800, first))

    def call(n: int, command: str) -> tuple:
        return ("assistant", "", None, json.dumps([{"id": f"call_{n}", "type": "function", "function": {
            "name": "terminal", "arguments": json.dumps({"command": command})}}]), None)

    def result(n: int, output: str, code: int) -> tuple:
        return ("tool", json.dumps({"output": output, "exit_code": code, "error": None}), f"call_{n}", None, "terminal")

    asked = ("user", "start the EAGLE-3 server", None, None, None)
    kept = [call(1, LAUNCH), result(1, OOM, 1)]
    summary = ("user", "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below. "
               "...\n## Historical Task Snapshot\nnvidia-smi showed the GPU.\n\n--- END OF CONTEXT SUMMARY — "
               "respond to the message below, not the summary above ---", None, None, None)
    rows = {first: [asked, call(0, "nvidia-smi"), result(0, "GPU 0: NVIDIA H100", 0), *kept],
            second: [asked, summary, *kept, ("user", "retry with --mem-fraction-static 0.7", None, None, None),
                     call(2, LAUNCH + " --mem-fraction-static 0.7"), result(2, "The server is fired up", 0)]}
    at = START
    for sid, session_rows in rows.items():
        for role, content, call_id, calls, tool in session_rows:
            at += 1
            conn.execute("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, "
                         "timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)", (sid, role, content, call_id, calls, tool, at))
    conn.commit()
    conn.close()
    a = analyze_path(db)
    assert [s["id"] for s in a.sessions] == [first]
    assert [(c.command, c.exit_code) for c in a.commands] == [
        ("nvidia-smi", 0), (LAUNCH, 1), (LAUNCH + " --mem-fraction-static 0.7", 0)]
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server", "retry with --mem-fraction-static 0.7"]
    assert a.stats["compactions"] == 1
