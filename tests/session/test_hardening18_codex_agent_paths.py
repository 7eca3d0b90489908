"""Codex MultiAgentV2 (0.15x): ``spawn_agent{message, task_name}`` answers ``{"task_name":
"/root/docs_review", "nickname": "Hypatia"}``, no thread id (openai/codex ``codex-rs/core/src/
tools/handlers/multi_agents_v2/spawn.rs`` ``SpawnAgentResult``), and the UI's
``collab_agent_spawn_end`` that named the thread is no longer persisted (``codex-rs/rollout/src/
policy.rs``). The sub-agent's rollout names its path in ``session_meta.source.subagent.
thread_spawn.agent_path``. The sub-agent was read as a child of the main agent but spawned by no
call: the report could not say which ``spawn_agent`` started it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PARENT = "019a5e20-34f6-76c2-bad0-442af9683acd"
CHILD = "019a5e21-0b1c-7d42-9e1f-5a6b7c8d9e0f"


def _rl(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T04:{ts}.000Z", "type": kind, "payload": payload}


PARENT_ROLLOUT = [
    _rl("19:00", "session_meta", {"id": PARENT, "cwd": "/tmp/project", "originator": "codex_cli_rs",
                                  "cli_version": "0.157.0", "source": "vscode"}),
    _rl("19:01", "turn_context", {"turn_id": "parent-turn", "model": "gpt-5.2-codex", "cwd": "/tmp/project"}),
    _rl("19:02", "response_item", {"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "Review the EAGLE-3 serving docs against the launch flags"}]}),
    _rl("19:03", "response_item", {"type": "function_call", "name": "spawn_agent", "call_id": "call_spawn_docs",
                                   "arguments": json.dumps({"message": "Compare docs/serving.md with serve.sh",
                                                            "task_name": "docs_review"})}),
    _rl("19:04", "response_item", {"type": "function_call_output", "call_id": "call_spawn_docs",
                                   "output": json.dumps({"task_name": "/root/docs_review", "nickname": "Hypatia"})}),
]
CHILD_ROLLOUT = [
    # the session_meta line as a rollout reader's test of v2 sub-agents quotes it (thread ids ours)
    _rl("19:27", "session_meta", {"id": CHILD, "cwd": "/tmp/project", "source": {"subagent": {"thread_spawn": {
        "parent_thread_id": PARENT, "depth": 1, "agent_path": "/root/docs_review", "agent_nickname": "Hypatia",
        "agent_role": None}}}}),
    _rl("19:28", "turn_context", {"turn_id": "child-turn", "model": "gpt-5.2-codex", "cwd": "/tmp/project"}),
    _rl("19:28", "inter_agent_communication", {"author": "/root", "recipient": "/root/docs_review",
                                               "content": "Compare docs/serving.md with serve.sh",
                                               "trigger_turn": True}),
    _rl("19:29", "response_item", {"type": "function_call", "name": "exec_command", "call_id": "call_cat",
                                   "arguments": json.dumps({"cmd": "cat serve.sh"})}),
    _rl("19:30", "response_item", {"type": "function_call_output", "call_id": "call_cat",
                                   "output": "Process exited with code 0\nOutput:\npython -m sglang.launch_server"}),
]


def _sessions(tmp_path: Path) -> Path:
    day = tmp_path / "sessions" / "2026" / "08" / "18"
    day.mkdir(parents=True)
    for ts, lines, thread in (("04-19-00", PARENT_ROLLOUT, PARENT), ("04-19-27", CHILD_ROLLOUT, CHILD)):
        (day / f"rollout-2026-08-18T{ts}-{thread}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return tmp_path / "sessions"


def test_a_v2_sub_agent_is_linked_to_the_spawn_call_that_named_its_path(tmp_path: Path) -> None:
    doc = analyze_path(_sessions(tmp_path)).to_json()
    agents = {a["id"]: a for a in doc["agents"]}
    child = agents[CHILD]
    assert (child["parent"], child["spawned_by"], child["description"]) == ("main", "call_spawn_docs", "Hypatia")
    assert [(c["agent"], c["command"]) for c in doc["commands"]] == [(CHILD, "cat serve.sh")]


def test_a_v2_spawn_result_is_no_failure_and_names_no_thread_by_itself(tmp_path: Path) -> None:
    doc = analyze_path(_sessions(tmp_path)).to_json()
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (1, 0)
