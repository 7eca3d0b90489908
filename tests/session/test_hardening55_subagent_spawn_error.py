"""A sub-agent whose spawning call came back as an error ("API Error: 500 ..." when the
sub-agent's request failed, anthropics/claude-code issue #28618) failed. Its own file holds the
prompt and perhaps a call that went well, and its ``meta.json`` links it to the call, but the
parent's result names no agent and gives no ``toolUseResult.status``: the agent read
``completed``. Now the error result says how it ended."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "5e55a000-0000-4000-8000-00000000c055"
API_ERROR = ('API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"},'
             '"request_id":"req_011CYVACTvHhN1Y4LYQ7wGbN"}')
PROMPT = "Read the EAGLE-3 draft config on gpu07 and report its layer count."


def _line(n: int, kind: str, message: dict, agent: str | None = None, **extra) -> dict:
    row = {"type": kind, "uuid": f"{agent or 'm'}{n}", "parentUuid": f"{agent or 'm'}{n - 1}" if n else None,
           "isSidechain": agent is not None, "userType": "external", "cwd": "/work/eagle", "sessionId": SESSION,
           "version": "2.1.173", "timestamp": f"2026-03-01T10:00:{n:02d}.000Z", "message": message, **extra}
    if agent is not None:
        row["agentId"] = agent
    return row


def _call(n: int, call: str, name: str, args: dict, agent: str | None = None) -> dict:
    return _line(n, "assistant", {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-opus-4",
                                  "content": [{"type": "tool_use", "id": call, "name": name, "input": args}]},
                 agent, requestId=f"req_{n}")


def _result(n: int, call: str, text: str, agent: str | None = None, is_error: bool = False, **extra) -> dict:
    return _line(n, "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                                                           "content": text, "is_error": is_error}]}, agent, **extra)


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _session(tmp_path: Path, spawn_result: dict) -> Path:
    trunk = tmp_path / f"{SESSION}.jsonl"
    _write(trunk, [
        _line(0, "user", {"role": "user", "content": "EAGLE-3 on gpu07 accepts 1.1 tokens a step; find out why."}),
        _call(1, "toolu_spawn", "Agent", {"description": "Check draft config", "prompt": PROMPT,
                                          "subagent_type": "general-purpose"}),
        spawn_result,
        _line(3, "assistant", {"id": "msg_3", "type": "message", "role": "assistant", "model": "claude-opus-4",
                               "content": [{"type": "text", "text": "The sub-agent failed; I will read it myself."}]}),
    ])
    folder = tmp_path / SESSION / "subagents"
    _write(folder / "agent-a1c2.jsonl", [
        _line(0, "user", {"role": "user", "content": PROMPT}, "a1c2"),
        _call(1, "toolu_cat", "Bash", {"command": "ssh gpu07 cat /models/eagle3/config.json"}, "a1c2"),
        _result(2, "toolu_cat", '{"architectures": ["LlamaForCausalLMEagle3"], "num_hidden_layers": 1}', "a1c2"),
    ])
    (folder / "agent-a1c2.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "Check draft config", "toolUseId": "toolu_spawn"}))
    return trunk


def _agent(doc: dict) -> dict:
    return next(a for a in doc["agents"] if a["id"] == "a1c2")


def test_a_sub_agent_whose_spawn_came_back_as_an_api_error_failed(tmp_path):
    failed = _result(2, "toolu_spawn", API_ERROR, is_error=True, toolUseResult="Error: " + API_ERROR)
    agent = _agent(analyze_path(_session(tmp_path, failed)).to_json())
    assert (agent["parent"], agent["spawned_by"], agent["status"]) == ("main", "toolu_spawn", "failed")


def test_a_sub_agent_whose_spawn_answered_without_error_still_completed(tmp_path):
    answered = _result(2, "toolu_spawn", "The draft has 1 layer.", is_error=False)
    assert _agent(analyze_path(_session(tmp_path, answered)).to_json())["status"] == "completed"


def test_a_sub_agent_stopped_by_hand_is_still_interrupted(tmp_path):
    stopped = _result(2, "toolu_spawn", "[Request interrupted by user for tool use]", is_error=True,
                      toolUseResult="Error: [Request interrupted by user for tool use]")
    assert _agent(analyze_path(_session(tmp_path, stopped)).to_json())["status"] == "interrupted"
