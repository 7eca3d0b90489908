"""Hermes Agent's ``delegate_task`` runs each sub-agent as a session of the same store
(``~/.hermes/state.db``): ``source`` ``subagent`` (the child ``AIAgent``'s ``platform="subagent"``),
``parent_session_id`` the session that delegated, started while that one ran (NousResearch/
hermes-agent ``tools/delegate_tool.py``). A compression ends a session (``end_reason``
``compression``) and goes on in a new one that names it the same way, started when it ended.

Before: the first child started was taken for the continuation: a session that delegated a task and
was compressed later went on with the sub-agent's talk (its commands the main agent's), and its
real continuation was read as a session of its own. Now the continuation is the child that is no
sub-agent and started when its parent ended. And a sub-agent's session, read as a session beside the
one that delegated (its failure reaching no one), is an agent of that session, as a Crush or OpenCode
sub-agent's session is."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path

SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,
    started_at REAL NOT NULL, ended_at REAL, end_reason TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
"""
START = 1793606400.0  # 2026-11-02T08:00:00Z
MAIN, CHILD, AFTER = "20261102_080000_0a1b2c", "20261102_080010_7c8d9e", "20261102_083000_4d5e6f"
LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"


def _call(n: int, name: str, arguments: dict) -> tuple:
    return ("assistant", "", None, json.dumps([{"id": f"call_{n}", "type": "function", "function": {
        "name": name, "arguments": json.dumps(arguments)}}]))


def _result(n: int, content) -> tuple:
    return ("tool", content if isinstance(content, str) else json.dumps(content), f"call_{n}", None)


def _store(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO sessions VALUES (?, ?, 'hermes-4', ?, ?, ?, ?)", [
        (MAIN, "cli", None, START, START + 1800, "compression"),
        (CHILD, "subagent", MAIN, START + 10, None, None),  # never ended: Hermes leaves a sub-agent's open
        (AFTER, "cli", MAIN, START + 1800, None, None)])
    goal = "read /models/draft/config.json and report its hidden_size"
    rows = {
        MAIN: [("user", "start the EAGLE-3 server", None, None),
               _call(0, "delegate_task", {"goal": goal}),
               _result(0, {"results": [{"task_index": 0, "status": "completed", "summary": "hidden_size 4096"}]}),
               _call(1, "terminal", {"command": LAUNCH}),
               _result(1, {"output": "torch.OutOfMemoryError: CUDA out of memory.", "exit_code": 1, "error": None})],
        CHILD: [("user", goal, None, None),
                _call(0, "terminal", {"command": "cat /models/draft/config.json"}),
                _result(0, {"output": '{"hidden_size": 4096}', "exit_code": 0, "error": None}),
                ("assistant", "hidden_size is 4096.", None, None)],
        AFTER: [("user", "start the EAGLE-3 server", None, None),
                ("user", "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary "
                         "below.\n--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---",
                 None, None),
                ("user", "retry with --mem-fraction-static 0.7", None, None),
                _call(2, "terminal", {"command": LAUNCH + " --mem-fraction-static 0.7"}),
                _result(2, {"output": "The server is fired up", "exit_code": 0, "error": None})]}
    at = START
    for sid, session_rows in rows.items():
        at = {MAIN: START, CHILD: START + 10, AFTER: START + 1800}[sid]
        for role, content, call_id, calls in session_rows:
            at += 1
            conn.execute("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (sid, role, content, call_id, calls, at))
    conn.commit()
    conn.close()
    return path


def test_a_compressed_session_goes_on_in_its_continuation_not_its_sub_agent(tmp_path: Path) -> None:
    a = analyze_path(_store(tmp_path / "state.db"))
    main = [(c.command, c.exit_code) for c in a.commands if c.session == MAIN and c.agent == "main"]
    assert main == [(LAUNCH, 1), (LAUNCH + " --mem-fraction-static 0.7", 0)]  # was the sub-agent's cat, no retry
    assert AFTER not in [s["id"] for s in a.sessions]  # was a session of its own
    assert [(c.command, c.exit_code) for c in a.commands if c.agent != "main" or c.session != MAIN] == [
        ("cat /models/draft/config.json", 0)]


def test_a_sub_agents_session_is_an_agent_of_the_session_that_delegated(tmp_path: Path) -> None:
    a = analyze_path(_store(tmp_path / "state.db"))
    assert [s["id"] for s in a.sessions] == [MAIN]  # the sub-agent's was a session of its own
    doc = a.to_json()
    assert [(x["id"], x["parent"], x["type"], x["status"], x["tool_calls"]) for x in doc["agents"]] == [
        ("main", None, "", "completed", 3), (CHILD, "main", "subagent", "completed", 1)]
    assert [(c.agent, c.command) for c in a.commands if c.agent != "main"] == [
        (CHILD, "cat /models/draft/config.json")]


def test_a_sub_agent_of_the_continuation_is_read_in_the_session_it_continued(tmp_path: Path) -> None:
    path = _store(tmp_path / "state.db")
    conn = sqlite3.connect(path)
    later = "20261102_084000_aa11bb"
    conn.execute("INSERT INTO sessions VALUES (?, 'subagent', 'hermes-4', ?, ?, NULL, NULL)", (later, AFTER, START + 2400))
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp) "
                     "VALUES (?, ?, ?, ?, ?, ?)", [
                         (later, "user", "check the server's health", None, None, START + 2401),
                         (later, *_call(0, "terminal", {"command": "curl -s localhost:30000/health"}), START + 2402),
                         (later, *_result(0, {"output": "OK", "exit_code": 0, "error": None}), START + 2403)])
    conn.commit()
    conn.close()
    a = analyze_path(path)
    assert [s["id"] for s in a.sessions] == [MAIN]
    assert [(c.agent, c.command) for c in a.commands if c.agent != "main"] == [
        (CHILD, "cat /models/draft/config.json"), (later, "curl -s localhost:30000/health")]
