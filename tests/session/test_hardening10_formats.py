"""Transcript shapes the readers got wrong (hardening round 10).

Each session is written here line by line in the shape the CLI writes (sources cited in each
test); names, hosts and outputs are ours.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SESSION = "7c1e2d3f-0a4b-4c5d-8e6f-9a0b1c2d3e4f"
AGENT = "a3f9c2e81b7d40c55"
_ENV = {"isSidechain": False, "userType": "external", "cwd": "/root/eagle3", "sessionId": SESSION,
        "version": "2.1.90", "gitBranch": "main"}


def _write(path: Path, lines: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _line(kind: str, uuid: str, ts: str, message: dict, **extra) -> dict:
    return {**_ENV, "type": kind, "uuid": uuid, "timestamp": f"2026-03-01T{ts}.000Z", "message": message, **extra}


def _sub(kind: str, uuid: str, ts: str, message: dict, **extra) -> dict:
    return _line(kind, uuid, ts, message, isSidechain=True, agentId=AGENT, **extra)


_STOP = "[Request interrupted by user for tool use]"


def _stopped(call: str) -> dict:
    """What the CLI writes for a call stopped with Esc (CLI 2.0.71 lines as transcript readers
    test them: ``toolUseResult: "Error: [Request interrupted by user for tool use]"``)."""
    return {"toolUseResult": f"Error: {_STOP}",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": _STOP,
                                                     "is_error": True}]}}


def _spawn(uuid: str, call: str) -> dict:
    return _line("assistant", uuid, "10:00:04", {
        "id": "msg_1", "role": "assistant", "model": "claude-opus-4-6",
        "content": [{"type": "tool_use", "id": call, "name": "Agent", "input": {
            "description": "Benchmark draft", "subagent_type": "general-purpose",
            "prompt": "Run the SGLang benchmark on gpu01"}}]})


def _interrupted_session(root: Path, meta: bool = True) -> Path:
    trunk = _write(root / f"{SESSION}.jsonl", [
        _line("user", "u1", "10:00:00", {"role": "user", "content": "accept length is 1.0 on gpu01, check the draft"}),
        _spawn("a1", "toolu_spawn"),
        {**_line("user", "u2", "10:03:00", {}), **_stopped("toolu_spawn")},
        _line("user", "u3", "10:03:00", {"role": "user", "content": [{"type": "text", "text": _STOP}]}),
        _line("user", "u4", "10:03:20", {"role": "user", "content": "stop, read the server log instead"}),
    ])
    subagents = root / SESSION / "subagents"
    _write(subagents / f"agent-{AGENT}.jsonl", [
        _sub("user", "s1", "10:00:05", {"role": "user", "content": "Run the SGLang benchmark on gpu01"}),
        _sub("assistant", "s2", "10:00:09", {"id": "msg_s2", "role": "assistant", "model": "claude-haiku-4-5",
                                             "content": [{"type": "tool_use", "id": "toolu_b1", "name": "Bash", "input": {
                                                 "command": "ssh gpu01 'python3 -m sglang.bench_serving --num-prompts 200'"}}]}),
        {**_sub("user", "s3", "10:03:00", {}), **_stopped("toolu_b1")},
    ])
    if meta:
        (subagents / f"agent-{AGENT}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": "Benchmark draft", "toolUseId": "toolu_spawn"}))
    return trunk


# -- a sub-agent the person stopped ---------------------------------------------------------------


def test_a_sub_agent_stopped_by_hand_is_interrupted_not_completed(tmp_path):
    """The person pressed Esc while an Agent call ran: its result is the CLI's
    "[Request interrupted by user for tool use]", with no agentId (the meta.json names the
    call). The sub-agent read as ``completed``; now it is ``interrupted``, and the postmortem
    says it was stopped."""
    _interrupted_session(tmp_path)
    a = analyze_path(tmp_path)
    doc = a.to_json()
    (sub,) = [x for x in doc["agents"] if x["id"] == AGENT]
    assert (sub["spawned_by"], sub["status"], sub["events"]) == ("toolu_spawn", "interrupted", 3)
    assert [x["status"] for x in doc["agents"] if x["id"] == "main"] == ["completed"]
    assert f"Sub-agent {AGENT} was stopped by hand (spawned by toolu_spawn)." in render_postmortem(a, "md")


def test_a_sub_agent_file_without_meta_that_ends_in_a_stop_is_interrupted(tmp_path):
    """No meta.json (CLI 2.0.x wrote none), so no result names the sub-agent: its own file
    ending in the stop says how it ended."""
    _interrupted_session(tmp_path, meta=False)
    doc = analyze_path(tmp_path).to_json()
    assert [x["status"] for x in doc["agents"] if x["id"] == AGENT] == ["interrupted"]
