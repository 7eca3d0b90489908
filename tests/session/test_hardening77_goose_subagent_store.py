"""Goose runs a sub-agent (its ``subagent`` tool) in a session of its own in the store
(``~/.local/share/goose/sessions/sessions.db``), named ``Subagent task for: <parent session id>``,
``session_type`` ``sub_agent`` (block/goose ``crates/goose/src/agents/subagent_handler.rs``,
``get_agent_messages``): the store says which session started it. Later releases' ``delegate``
(the summon extension) name it "Delegated task", and its first prompt is the ``instructions`` the
call gave: the store says which call started it.

Before: the sub-agent's session was a session beside the one that started it, named after it, its
failed launch reaching no one. Now it is an agent of that session (as a Hermes, Crush or OpenCode
sub-agent's session is), its commands the sub-agent's, linked to the ``delegate`` call whose
instructions it ran; a session so named whose parent is not in the store is still a session of its
own."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening23_formats_goose_store import SCHEMA

PARENT, CHILD = "20260923_2", "20260923_3"
LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"


def _add(conn: sqlite3.Connection, session: str, role: str, content: list, created: int) -> None:
    conn.execute("INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (f"msg_{session}_{created}", session, role, json.dumps(content), created,
                                              '{"userVisible":true,"agentVisible":true}'))


def _shell(call_id: str, command: str) -> dict:
    return {"type": "toolRequest", "id": call_id, "toolCall": {"status": "success", "value": {
        "name": "developer__shell", "arguments": {"command": command}}}}


def _output(call_id: str, text: str, error: bool = False) -> dict:
    return {"type": "toolResponse", "id": call_id, "toolResult": {"status": "success", "value": {
        "content": [{"type": "text", "text": text}], "isError": error}}}


def _store(path: Path, parent: str = PARENT, name: str | None = None, task: dict | None = None) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO sessions (id, name, session_type, working_dir, created_at) VALUES (?, ?, ?, ?, ?)", [
        (PARENT, "eagle3 bring-up", "user", "/work/spec", "2026-09-23 08:53:20"),
        (CHILD, name or f"Subagent task for: {parent}", "sub_agent", "/work/spec", "2026-09-23 08:53:30")])
    # (the releases that name the session so create a task, then run it: dynamic_task__create_task)
    task = task or {"type": "toolRequest", "id": "call_p1", "toolCall": {"status": "success", "value": {
        "name": "dynamic_task__create_task", "arguments": {"task_parameters": [
            {"instructions": "start the EAGLE-3 server"}]}}}}
    _add(conn, PARENT, "user", [{"type": "text", "text": "bring EAGLE-3 up on gpu-3"}], 1790153600)
    _add(conn, PARENT, "assistant", [{"type": "text", "text": "Delegating the launch."}, task], 1790153601)
    _add(conn, PARENT, "user", [_output("call_p1", "The server did not start: CUDA out of memory.")], 1790153660)
    _add(conn, PARENT, "assistant", [_shell("call_p2", "nvidia-smi")], 1790153661)
    _add(conn, PARENT, "user", [_output("call_p2", "GPU 0: NVIDIA H100 80GB  79000MiB / 81559MiB")], 1790153662)
    _add(conn, CHILD, "user", [{"type": "text", "text": "start the EAGLE-3 server"}], 1790153610)
    _add(conn, CHILD, "assistant", [_shell("call_c1", LAUNCH)], 1790153611)
    _add(conn, CHILD, "user", [_output("call_c1", "torch.OutOfMemoryError: CUDA out of memory.\n\n"
                                                  "Command exited with code 1", error=True)], 1790153650)
    _add(conn, CHILD, "assistant", [{"type": "text", "text": "The server did not start: CUDA out of memory."}],
         1790153651)
    conn.commit()
    conn.close()
    return path


def test_a_sub_agents_session_is_an_agent_of_the_session_that_started_it(tmp_path: Path) -> None:
    a = analyze_path(_store(tmp_path / "sessions.db"))
    assert [s["id"] for s in a.sessions] == [PARENT]  # was two sessions, the sub-agent's beside it
    assert [(x["id"], x["parent"], x["type"], x["tool_calls"], x["failed_calls"]) for x in a.to_json()["agents"]] == [
        ("main", None, "", 2, 1), (CHILD, "main", "subagent", 1, 1)]
    assert [(c.session, c.agent, c.command, c.exit_code) for c in a.commands] == [
        (PARENT, "main", "nvidia-smi", None), (PARENT, CHILD, LAUNCH, 1)]


def test_a_sub_agent_whose_parent_is_not_in_the_store_is_a_session(tmp_path: Path) -> None:
    a = analyze_path(_store(tmp_path / "sessions.db", parent="20260101_9"))
    assert [s["id"] for s in a.sessions] == [PARENT, CHILD]
    assert [(c.session, c.agent, c.command) for c in a.commands] == [
        (PARENT, "main", "nvidia-smi"), (CHILD, "main", LAUNCH)]


def test_a_delegated_tasks_session_is_linked_by_the_call_that_gave_its_instructions(tmp_path: Path) -> None:
    # later releases: the summon extension's delegate names the session "Delegated task", no parent
    # written; the ad-hoc task's prompt is the call's instructions
    delegate = {"type": "toolRequest", "id": "call_d1", "toolCall": {"status": "success", "value": {
        "name": "delegate", "arguments": {"instructions": "start the EAGLE-3 server"}}}}
    a = analyze_path(_store(tmp_path / "sessions.db", name="Delegated task", task=delegate))
    assert [s["id"] for s in a.sessions] == [PARENT]  # was two sessions
    assert [(x["id"], x["parent"], x["spawned_by"], x["type"]) for x in a.to_json()["agents"]] == [
        ("main", None, None, ""), (CHILD, "main", "call_d1", "subagent")]
    assert [(c.agent, c.command, c.exit_code) for c in a.commands] == [("main", "nvidia-smi", None), (CHILD, LAUNCH, 1)]
