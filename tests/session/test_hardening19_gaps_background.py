"""A Claude Code sub-agent's background command that ends after the sub-agent did: the CLI
writes the ``<task-notification>`` into the trunk, which is read before the sub-agent's own
file (tests/data/transcripts_newest/README.md, the b008 session). The note still ends that
sub-agent's command, read by one process or by worker processes."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from spec_debug.session import parallel
from spec_debug.session.analysis import analyze_path
from spec_debug.session.formats import claude_code

SID = "c3d4e5f6-0000-4000-8000-0000000bb001"
AGENT = "a3f9c2e1b7d4a6c81"
BENCH = "ssh gpu02 'python3 -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 200'"


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> dict:
    out = {"parentUuid": None, "isSidechain": agent is not None, "userType": "external", "cwd": "/home/me/kimi",
           "sessionId": SID, "version": "2.1.220", "type": kind, "uuid": f"{agent or 'm'}-u{n}",
           "timestamp": f"2026-11-02T14:{n:02d}:00.000Z",
           "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent:
        out["agentId"] = agent
    return out


def _note(task: str, call: str | None, status: str, summary: str) -> str:
    named = f"<tool-use-id>{call}</tool-use-id>\n" if call else ""
    return (f"<task-notification>\n<task-id>{task}</task-id>\n{named}<status>{status}</status>\n"
            f"<summary>{summary}</summary>\n</task-notification>")


def _session(tmp_path: Path, trunk_tail: list[dict], agent_tail: list[dict] = (), padding: int = 0) -> Path:
    """A trunk that starts one sub-agent, which starts the benchmark in the background and ends;
    ``trunk_tail`` comes after the sub-agent's result (where the CLI writes the note)."""
    trunk = [
        _line(0, "user", "benchmark EAGLE-3 on gpu02 in a sub-agent"),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_A", "name": "Agent", "input": {
            "description": "bench gpu02", "prompt": "run the serving benchmark on gpu02",
            "subagent_type": "general-purpose"}}]),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_A",
                           "content": [{"type": "text", "text": "Started the benchmark in the background."}]}],
              toolUseResult={"status": "completed", "agentId": AGENT, "totalDurationMs": 4000}),
        *trunk_tail,
    ]
    # Prose long enough to cut the files into many spans for the worker processes.
    filler = [_line(40 + k, "assistant", [{"type": "text", "text": f"still waiting ({k}) " + "x" * 900}])
              for k in range(padding)]
    sub = [
        _line(0, "user", "run the serving benchmark on gpu02", AGENT),
        *filler,
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_S", "name": "Bash", "input": {
            "command": BENCH, "description": "Serving benchmark", "run_in_background": True}}], AGENT),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_S", "is_error": False, "content": (
            "Command running in background with ID: bz7y6x5w4. Output is being written to: "
            "/tmp/x/tasks/bz7y6x5w4.output. You will be notified when it completes.")}], AGENT),
        *agent_tail,
        _line(3, "assistant", [{"type": "text", "text": "Started the benchmark in the background."}], AGENT),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in trunk + filler))
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    (folder / f"agent-{AGENT}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in sub))
    (folder / f"agent-{AGENT}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "bench gpu02", "toolUseId": "toolu_A"}))
    return path


FAILED = "Background command \"Serving benchmark\" failed with exit code 1"


def _commands(doc: dict) -> list[tuple]:
    return [(c["agent"], c["exit_code"], c["is_error"]) for c in doc["commands"]]


def _failed(doc: dict) -> list[tuple]:
    return [(a["id"], a["failed_calls"]) for a in doc["agents"]]


def test_a_note_in_the_trunk_ends_the_sub_agents_benchmark_with_its_exit_code(tmp_path):
    path = _session(tmp_path, [_line(3, "user", _note("bz7y6x5w4", "toolu_S", "failed", FAILED))])
    doc = analyze_path(path).to_json()
    assert _commands(doc) == [(AGENT, 1, True)]
    assert _failed(doc) == [("main", 0), (AGENT, 1)]
    [error] = doc["errors"]
    assert (error["agent"], error["kind"], error["host"], error["command_seq"]) == (AGENT, "exit_code", "gpu02", 5)
    # the note's own line, in the trunk, is where the result was read
    assert (error["seq"], error["source_line"]) == (3, 4)
    [agent] = [a for a in doc["agents"] if a["id"] == AGENT]
    assert agent["first_seq"] <= agent["last_seq"]


def test_a_note_naming_only_the_task_ends_the_sub_agents_command_too(tmp_path):
    # CLIs before <tool-use-id>: the task id leads back to the call through its launch result,
    # which is in the sub-agent's file; the note comes as the queue's copy and a user line.
    note = _note("bz7y6x5w4", None, "completed", "Background command \"Serving benchmark\" completed (exit code 0)")
    queued = {"type": "queue-operation", "operation": "enqueue", "timestamp": "2026-11-02T14:03:00.000Z",
              "sessionId": SID, "content": note}
    path = _session(tmp_path, [queued, _line(4, "user", note)])
    doc = analyze_path(path).to_json()
    assert _commands(doc) == [(AGENT, 0, False)]
    assert doc["errors"] == [] and _failed(doc) == [("main", 0), (AGENT, 0)]


def test_the_sub_agents_own_word_on_its_command_wins_over_the_trunks_copy(tmp_path):
    # Its own note (read later, in its file) says how it ended; the trunk's copy ends nothing twice.
    own = _line(5, "user", _note("bz7y6x5w4", "toolu_S", "completed",
                                 "Background command \"Serving benchmark\" completed (exit code 0)"), AGENT)
    path = _session(tmp_path, [_line(3, "user", _note("bz7y6x5w4", "toolu_S", "failed", FAILED))], [own])
    doc = analyze_path(path).to_json()
    assert _commands(doc) == [(AGENT, 0, False)]
    assert doc["errors"] == []


def test_a_note_for_a_call_no_file_holds_ends_nothing(tmp_path):
    # A resumed session's note about a call of the session it continues (not given).
    path = _session(tmp_path, [_line(3, "user", _note("b0ld0ld01", "toolu_OLD", "failed", FAILED))])
    doc = analyze_path(path).to_json()
    assert _commands(doc) == [(AGENT, None, False)]
    assert doc["errors"] == [] and _failed(doc) == [("main", 0), (AGENT, 0)]


def test_held_notes_are_capped(tmp_path, monkeypatch):
    # Notes about calls never read are held in a bounded table: the oldest go first.
    monkeypatch.setattr(claude_code, "HELD_NOTES", 3)
    stale = [_line(3, "user", _note(f"bold{k:05d}", f"toolu_OLD{k}", "failed", FAILED)) for k in range(5)]
    path = _session(tmp_path, [_line(3, "user", _note("bz7y6x5w4", "toolu_S", "failed", FAILED)), *stale])
    doc = analyze_path(path).to_json()
    assert _commands(doc) == [(AGENT, None, False)]  # its note was pushed out by five later ones
    (tmp_path / "again").mkdir()
    path = _session(tmp_path / "again", [*stale[:2], _line(3, "user", _note("bz7y6x5w4", "toolu_S", "failed", FAILED))])
    assert _commands(analyze_path(path).to_json()) == [(AGENT, 1, True)]


def test_worker_processes_end_the_sub_agents_command_the_same_way(tmp_path, monkeypatch):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = _session(tmp_path, [_line(3, "user", _note("bz7y6x5w4", "toolu_S", "failed", FAILED))], padding=40)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = analyze_path(path).to_json()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 4096)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    many = analyze_path(path).to_json()
    assert _commands(many) == [(AGENT, 1, True)]
    assert many["commands"] == one["commands"] and many["errors"] == one["errors"]
    assert many["agents"] == one["agents"]
