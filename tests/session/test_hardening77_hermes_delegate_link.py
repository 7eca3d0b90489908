"""Hermes Agent's ``delegate_task`` runs each sub-agent as a session of the store
(``~/.hermes/state.db``) that names the session that delegated (``parent_session_id``), not the
call: the child runs its task's ``goal`` as its first user message, and a call gives one goal
(``goal``) or a batch (``tasks``), whose result reports each task's ``status`` by ``task_index``
(NousResearch/hermes-agent ``tools/delegate_tool.py``, ``_run_single_child``).

Before: the sub-agents were agents of the session but linked to no call (``spawned_by`` None,
where Claude Code's, Codex's and Cline's name theirs), the call was no sub-agent's start, so a
sub-agent's failed launch changed nothing of what its parent did next; and a sub-agent that timed
out (Hermes's ``"status": "timeout"``) was ``completed``. Now each is linked to the call whose goal
it ran, its status the one the call's result gave it (``running`` while the call has none yet, as
a Claude Code sub-agent whose spawn went unanswered), its description its goal."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path

SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,
    started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
"""
START = 1793606400.0  # 2026-11-02T08:00:00Z
MAIN = "20261102_080000_0a1b2c"
CONFIG, LAUNCHER, HEALTH = "20261102_080010_7c8d9e", "20261102_080011_1f2e3d", "20261102_080500_9a8b7c"
LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
READ_GOAL = "read /models/draft/config.json and report its hidden_size"
LAUNCH_GOAL = "start the EAGLE-3 server on port 30000 and wait until it is healthy"
HEALTH_GOAL = "check the server's health"


def _call(call_id: str, name: str, arguments: dict) -> tuple:
    return ("assistant", "", None, json.dumps([{"id": call_id, "type": "function", "function": {
        "name": name, "arguments": json.dumps(arguments)}}]))


def _result(call_id: str, content) -> tuple:
    return ("tool", content if isinstance(content, str) else json.dumps(content), call_id, None)


def _store(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO sessions VALUES (?, ?, 'hermes-4', ?, ?, NULL, NULL, NULL)", [
        (MAIN, "cli", None, START), (CONFIG, "subagent", MAIN, START + 10), (LAUNCHER, "subagent", MAIN, START + 11),
        (HEALTH, "subagent", MAIN, START + 300)])
    rows = {
        MAIN: [("user", "bring up EAGLE-3 on this box", None, None),
               _call("call_Xq1", "delegate_task", {"tasks": [{"goal": READ_GOAL}, {"goal": LAUNCH_GOAL,
                                                                                     "toolsets": ["terminal"]}]}),
               _result("call_Xq1", {"results": [
                   {"task_index": 0, "status": "completed", "summary": "hidden_size is 4096", "api_calls": 2},
                   {"task_index": 1, "status": "timeout", "summary": None, "api_calls": 3,
                    "error": "Subagent timed out after 600s with 3 API call(s) completed"}],
                   "total_duration_seconds": 601.2}),
               _call("call_Xq2", "delegate_task", {"goal": HEALTH_GOAL}),
               _result("call_Xq2", {"results": [{"task_index": 0, "status": "completed", "summary": "healthy"}]})],
        CONFIG: [("user", READ_GOAL, None, None),
                 _call("call_c1", "terminal", {"command": "cat /models/draft/config.json"}),
                 _result("call_c1", {"output": '{"hidden_size": 4096}', "exit_code": 0, "error": None}),
                 ("assistant", "hidden_size is 4096", None, None)],
        LAUNCHER: [("user", LAUNCH_GOAL, None, None),
                   _call("call_l1", "terminal", {"command": LAUNCH, "background": True}),
                   _result("call_l1", {"output": "Background process started", "session_id": "proc_1",
                                       "exit_code": 0, "error": None}),
                   _call("call_l2", "terminal", {"command": "curl -s localhost:30000/health"}),
                   _result("call_l2", {"output": "", "exit_code": 7, "error": None})],
        HEALTH: [("user", HEALTH_GOAL, None, None),
                 _call("call_h1", "terminal", {"command": "curl -s localhost:30000/health"}),
                 _result("call_h1", {"output": "OK", "exit_code": 0, "error": None}),
                 ("assistant", "healthy", None, None)]}
    for sid, session_rows in rows.items():
        at = {MAIN: START, CONFIG: START + 10, LAUNCHER: START + 11, HEALTH: START + 300}[sid]
        for role, content, call_id, calls in session_rows:
            at += 1
            conn.execute("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (sid, role, content, call_id, calls, at))
    conn.commit()
    conn.close()
    return path


def test_each_sub_agent_is_linked_to_the_call_that_delegated_its_goal(tmp_path: Path) -> None:
    a = analyze_path(_store(tmp_path / "state.db"))
    assert [s["id"] for s in a.sessions] == [MAIN]
    agents = [(x["id"], x["parent"], x["spawned_by"], x["type"], x["description"], x["status"])
              for x in a.to_json()["agents"]]
    assert agents == [
        ("main", None, None, "", "", "completed"),
        (CONFIG, "main", "call_Xq1", "subagent", READ_GOAL, "completed"),  # was spawned_by None, no description
        (LAUNCHER, "main", "call_Xq1", "subagent", LAUNCH_GOAL, "failed"),  # was "completed": it timed out
        (HEALTH, "main", "call_Xq2", "subagent", HEALTH_GOAL, "completed")]


def test_goals_given_twice_are_linked_in_the_order_of_their_calls(tmp_path: Path) -> None:
    path = _store(tmp_path / "state.db")
    conn = sqlite3.connect(path)
    again = "20261102_081000_5e6f7a"
    conn.execute("INSERT INTO sessions VALUES (?, 'subagent', 'hermes-4', ?, ?, NULL, NULL, NULL)",
                 (again, MAIN, START + 600))
    conn.executemany("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp) "
                     "VALUES (?, ?, ?, ?, ?, ?)", [
                         (MAIN, *_call("call_Xq3", "delegate_task", {"goal": HEALTH_GOAL}), START + 599),
                         (MAIN, *_result("call_Xq3", {"results": [{"task_index": 0, "status": "failed",
                                                                   "summary": ""}]}), START + 700),
                         (again, "user", HEALTH_GOAL, None, None, START + 601),
                         (again, *_call("call_h2", "terminal", {"command": "curl -s localhost:30000/health"}),
                          START + 602),
                         (again, *_result("call_h2", {"output": "", "exit_code": 7, "error": None}), START + 603)])
    conn.commit()
    conn.close()
    a = analyze_path(path)
    assert [(x["id"], x["spawned_by"], x["status"]) for x in a.to_json()["agents"]][-2:] == [
        (HEALTH, "call_Xq2", "completed"), (again, "call_Xq3", "failed")]


def test_a_sub_agent_whose_goal_no_call_gave_stays_unlinked(tmp_path: Path) -> None:
    path = _store(tmp_path / "state.db")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE messages SET content = 'something else' WHERE session_id = ? AND role = 'user'", (HEALTH,))
    conn.commit()
    conn.close()
    a = analyze_path(path)
    assert [(x["id"], x["spawned_by"], x["description"], x["status"]) for x in a.to_json()["agents"]][-1] == \
        (HEALTH, None, "", "completed")


def test_a_sub_agent_whose_call_has_no_result_yet_is_running(tmp_path: Path) -> None:
    # the store read (or copied) while the batch ran: the delegating call has no result yet
    path = _store(tmp_path / "state.db")
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM messages WHERE session_id = ? AND tool_call_id = 'call_Xq1'", (MAIN,))
    conn.commit()
    conn.close()
    a = analyze_path(path)
    assert [(x["id"], x["spawned_by"], x["status"]) for x in a.to_json()["agents"]][1:] == [
        (CONFIG, "call_Xq1", "running"), (LAUNCHER, "call_Xq1", "running"), (HEALTH, "call_Xq2", "completed")]
