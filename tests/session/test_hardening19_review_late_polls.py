"""Polls of a Claude Code background command after the review of 4a6664a: a server that died is
polled again and again (TaskOutput answers the same end each time), and a sub-agent may poll
the server its trunk started. The command ended once, with its exit code; the polls are reads."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from spec_debug.session import parallel
from spec_debug.session.analysis import analyze_path

from test_hardening19_gaps_polls import CRASH, SID, _line, _session, _task_output

AGENT = "a7c1e9b3d5f20486e"


def _commands(doc: dict) -> list[tuple]:
    return [(c["agent"], c["seq"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]]


def _agents(doc: dict) -> list[tuple]:
    return [(a["id"], a["tool_calls"], a["failed_calls"], a["errors"]) for a in doc["agents"]]


def test_a_dead_server_polled_three_times_failed_once(tmp_path):
    doc = analyze_path(_session(tmp_path, [_task_output("failed", 1, CRASH)] * 3)).to_json()
    assert _commands(doc) == [("main", 1, 1, True, 4)]
    assert [(e["kind"], e["seq"], e["command_seq"]) for e in doc["errors"]] == [("kv_cache_memory", 4, 1)]
    assert _agents(doc) == [("main", 4, 1, 1)]  # the launch and three polls; one failure, one error
    assert doc["stats"]["errors"] == 1 and doc["loops"] == []


def test_a_poll_that_could_not_find_the_shell_ends_nothing(tmp_path):
    # BashOutput's own failure (the id is gone) says nothing about how the command ended.
    path = _session(tmp_path, [("<tool_use_error>No shell found with ID: b9k2m4x7q</tool_use_error>", None)])
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[4]["message"]["content"][0]["is_error"] = True
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    assert _commands(doc) == [("main", 1, None, False, None)]
    assert [e["kind"] for e in doc["errors"]] == ["tool_error"]


def _sub_agent_polls(tmp_path: Path, padding: int = 0) -> Path:
    """The trunk starts the server in the background, then a sub-agent that waits for it."""
    path = _session(tmp_path, [], tail=[
        _line(5, "assistant", [{"type": "tool_use", "id": "toolu_A", "name": "Agent", "input": {
            "description": "wait for server", "prompt": "wait for the gpu01 server (task b9k2m4x7q)",
            "subagent_type": "general-purpose"}}]),
        _line(6, "user", [{"type": "tool_result", "tool_use_id": "toolu_A",
                           "content": [{"type": "text", "text": "The server died: not enough KV cache memory."}]}],
              toolUseResult={"status": "completed", "agentId": AGENT, "totalDurationMs": 9000}),
    ], padding=padding)
    text, result = _task_output("failed", 1, CRASH)
    poll = [
        _line(0, "user", "wait for the gpu01 server (task b9k2m4x7q)"),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_SP", "name": "TaskOutput",
                                "input": {"task_id": "b9k2m4x7q", "block": True, "timeout": 600000}}]),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_SP", "content": text}], toolUseResult=result),
        _line(3, "assistant", [{"type": "text", "text": "The server died: not enough KV cache memory."}]),
    ]
    for row in poll:
        row.update(isSidechain=True, agentId=AGENT, uuid=f"{AGENT}-{row['uuid']}")
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    (folder / f"agent-{AGENT}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in poll))
    (folder / f"agent-{AGENT}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "wait for server", "toolUseId": "toolu_A"}))
    return path


def test_a_sub_agent_polling_the_trunks_server_ends_the_trunks_launch(tmp_path):
    doc = analyze_path(_sub_agent_polls(tmp_path)).to_json()
    [launch] = _commands(doc)
    assert launch[:4] == ("main", 1, 1, True) and launch[4] > 1  # read in the sub-agent's file
    [error] = doc["errors"]
    assert (error["kind"], error["agent"], error["command_seq"], error["host"]) == ("kv_cache_memory", "main", 1, "gpu01")
    # the trunk's launch failed, not the sub-agent's poll
    assert _agents(doc) == [("main", 2, 1, 1), (AGENT, 1, 0, 0)]
    # the result counts for the trunk, but its line is the sub-agent's: the trunk's span and
    # its phase end at its own last line, before the sub-agent's phase starts
    main, sub = doc["agents"]
    assert main["last_seq"] < sub["first_seq"] <= launch[4] <= sub["last_seq"]
    trunk, sub_phase = doc["segments"]
    assert (trunk["agent"], trunk["errors"], sub_phase["agent"]) == ("main", 1, AGENT)
    assert trunk["end_seq"] == main["last_seq"] < sub_phase["start_seq"]


def test_worker_processes_give_the_sub_agents_poll_to_the_trunk_too(tmp_path, monkeypatch):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = _sub_agent_polls(tmp_path, padding=40)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = analyze_path(path).to_json()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 4096)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    many = analyze_path(path).to_json()
    assert [c[:4] for c in _commands(many)] == [("main", 1, 1, True)]
    assert many["commands"] == one["commands"] and many["agents"] == one["agents"]
    assert [e["kind"] for e in many["errors"]] == [e["kind"] for e in one["errors"]]
