"""A Codex sub-agent that errored (its model stream broke, its usage ran out) often leaves no
failed command in its own rollout: its parent learns it from the ``wait`` tool's result,
``{"status": {<thread>: {"errored": msg}}, "timed_out": false}`` (openai/codex ``codex-rs/core/src/
tools/handlers/multi_agents/wait.rs``), or, under MultiAgentV2, from the ``<subagent_notification>``
Codex writes into its history. Neither was read: the sub-agent was ``completed`` in agents[], the
wait an ordinary call, and what the parent did instead no change of approach. Now the sub-agent is
``failed``, the wait a failed call (as ``codex exec --json`` marks it), and the parent's next kind
of step a pivot triggered by it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PARENT = "019a5e20-34f6-76c2-bad0-442af9683acd"
CHILD = "019a5e21-0b1c-7d42-9e1f-5a6b7c8d9e0f"
BROKE = "stream disconnected before completion: error sending request for url (https://chatgpt.com/backend-api/codex/responses)"


def _rl(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T04:{ts}.000Z", "type": kind, "payload": payload}


def _parent(wait_status: dict | str, v2: bool = False) -> list[dict]:
    head = [
        _rl("19:00", "session_meta", {"id": PARENT, "cwd": "/tmp/p", "originator": "codex_cli_rs",
                                      "cli_version": "0.98.0", "source": "cli"}),
        _rl("19:01", "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/tmp/p"}),
        _rl("19:02", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "EAGLE-3 on gpu01 is slow, find out why"}]}),
        _rl("19:03", "response_item", {"type": "function_call", "name": "spawn_agent", "call_id": "call_spawn",
                                       "arguments": json.dumps({"message": "read the sglang log on gpu01",
                                                                "task_name": "log_reader"})}),
    ]
    if v2:
        told = [
            _rl("19:04", "response_item", {"type": "function_call_output", "call_id": "call_spawn",
                                           "output": json.dumps({"task_name": "/root/log_reader",
                                                                 "nickname": "Kepler"})}),
            _rl("21:05", "response_item", {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "<subagent_notification>\n" + json.dumps(
                    {"agent_path": "/root/log_reader", "status": wait_status}) + "\n</subagent_notification>"}]}),
        ]
    else:
        told = [
            _rl("19:04", "response_item", {"type": "function_call_output", "call_id": "call_spawn",
                                           "output": json.dumps({"agent_id": CHILD, "nickname": "Kepler"})}),
            _rl("19:05", "response_item", {"type": "function_call", "name": "wait", "call_id": "call_wait",
                                           "arguments": json.dumps({"ids": [CHILD], "timeout_ms": 300000})}),
            _rl("21:05", "response_item", {"type": "function_call_output", "call_id": "call_wait",
                                           "output": json.dumps({"status": {CHILD: wait_status},
                                                                 "timed_out": False})}),
        ]
    tail = [
        _rl("21:06", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "The log reader failed. Instead I will check the GPUs on gpu01 myself."}]}),
        _rl("21:07", "response_item", {"type": "function_call", "name": "exec_command", "call_id": "call_smi",
                                       "arguments": json.dumps({"cmd": "ssh gpu01 nvidia-smi"})}),
        _rl("21:08", "response_item", {"type": "function_call_output", "call_id": "call_smi",
                                       "output": "Process exited with code 0\nOutput:\nNVIDIA-SMI 550.54.15"}),
    ]
    return head + told + tail


def _child(v2: bool = False) -> list[dict]:
    spawn = {"parent_thread_id": PARENT, "depth": 1, "agent_nickname": "Kepler", "agent_role": "explorer"}
    if v2:
        spawn["agent_path"] = "/root/log_reader"
    return [
        _rl("19:27", "session_meta", {"id": CHILD, "cwd": "/tmp/p", "source": {"subagent": {"thread_spawn": spawn}}}),
        _rl("19:28", "turn_context", {"turn_id": "c1", "model": "gpt-5.2-codex", "cwd": "/tmp/p"}),
        _rl("19:28", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "read the sglang log on gpu01"}]}),
        _rl("19:29", "response_item", {"type": "function_call", "name": "exec_command", "call_id": "call_tail",
                                       "arguments": json.dumps({"cmd": "ssh gpu01 tail -n 5 /var/log/sglang.log"})}),
        _rl("19:30", "response_item", {"type": "function_call_output", "call_id": "call_tail",
                                       "output": "Process exited with code 0\nOutput:\n[2026-08-18 04:19:00] server started"}),
    ]


def _analyze(tmp_path: Path, wait_status, v2: bool = False) -> dict:
    day = tmp_path / "sessions" / "2026" / "08" / "18"
    day.mkdir(parents=True)
    for ts, lines, thread in (("04-19-00", _parent(wait_status, v2), PARENT), ("04-19-27", _child(v2), CHILD)):
        (day / f"rollout-2026-08-18T{ts}-{thread}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(tmp_path / "sessions").to_json()


def _agents(doc: dict) -> dict:
    return {a["id"]: (a["status"], a["tool_calls"], a["failed_calls"], a["spawned_by"]) for a in doc["agents"]}


def test_a_sub_agent_the_wait_says_errored_is_failed_and_its_parent_pivots(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, {"errored": BROKE})
    assert _agents(doc) == {"main": ("completed", 3, 1, None), CHILD: ("failed", 1, 0, "call_spawn")}
    assert [(e["agent"], e["seq"], e["message"]) for e in doc["errors"]] == [("main", 6, f"{CHILD}: errored: {BROKE}")]
    assert [(p["agent"], p["seq"], p["trigger_seq"], p["kind"], p["from_category"], p["to_category"])
            for p in doc["pivots"]] == [("main", 8, 6, "error", "other", "gpu_status")]
    assert doc["pivots"][0]["summary"].endswith("moved from running commands to checking the gpus: nvidia-smi (on gpu01)")


def test_a_sub_agent_the_wait_says_completed_stays_completed_with_no_pivot(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, {"completed": "accept len 1.02 in the last 5 lines"})
    assert _agents(doc) == {"main": ("completed", 3, 0, None), CHILD: ("completed", 1, 0, "call_spawn")}
    assert doc["errors"] == [] and doc["pivots"] == []


def test_a_wait_that_finds_the_thread_gone_says_so_of_the_call_not_of_the_agent_that_ran(tmp_path: Path) -> None:
    # not_found: the thread the wait names is gone; the rollout read shows it ran, so it is not "missing"
    doc = _analyze(tmp_path, "not_found")
    assert _agents(doc) == {"main": ("completed", 3, 1, None), CHILD: ("completed", 1, 0, "call_spawn")}
    assert [(p["seq"], p["trigger_seq"]) for p in doc["pivots"]] == [(8, 6)]


def test_a_multi_agent_v2_notification_that_the_sub_agent_errored_makes_it_failed(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, {"errored": BROKE}, v2=True)
    assert _agents(doc) == {"main": ("completed", 2, 0, None), CHILD: ("failed", 1, 0, "call_spawn")}
    assert not any(p["text"].startswith("<subagent_notification>") for p in doc["prompts"])
