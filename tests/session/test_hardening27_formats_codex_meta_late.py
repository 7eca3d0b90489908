"""A Codex sub-agent rollout whose ``session_meta`` is not among its first 8 records (items written
ahead of it, as session indexers test for: Codex's own lister looks through the first 10 records)
is still that sub-agent: an agent of the parent's session, linked to the call that spawned it.
It was a session of its own, its parent unknown."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

PARENT = "019a0000-0000-7000-8000-000000000001"
CHILD = "019a0000-0000-7000-8000-000000000002"


def _line(kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": "2026-05-02T10:00:00.000Z", "type": kind, "payload": payload})


def _message(text: str) -> str:
    return _line("response_item", {"type": "message", "role": "user",
                                   "content": [{"type": "input_text", "text": text}]})


def test_a_sub_agent_whose_meta_comes_after_ten_items_is_nested(tmp_path):
    day = tmp_path / "2026" / "05" / "02"
    day.mkdir(parents=True)
    parent = [_line("session_meta", {"id": PARENT, "cwd": "/w", "cli_version": "0.60.0", "source": "cli"}),
              _message("run it"),
              _line("response_item", {"type": "function_call", "name": "spawn_agent", "arguments": "{}",
                                      "call_id": "c0"}),
              _line("response_item", {"type": "function_call_output", "call_id": "c0",
                                      "output": json.dumps({"agent_id": CHILD})})]
    spawn = {"subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1, "agent_nickname": "Bob"}}}
    child = [_message(f"item {n}") for n in range(10)] + [
        _line("session_meta", {"id": CHILD, "cwd": "/w", "cli_version": "0.60.0", "source": spawn}),
        _line("response_item", {"type": "function_call", "name": "shell", "call_id": "c1",
                                "arguments": json.dumps({"command": ["bash", "-lc", "false"]})}),
        _line("response_item", {"type": "function_call_output", "call_id": "c1",
                                "output": json.dumps({"output": "boom", "metadata": {"exit_code": 1}})})]
    (day / f"rollout-2026-05-02T10-00-00-{PARENT}.jsonl").write_text("\n".join(parent) + "\n")
    (day / f"rollout-2026-05-02T10-00-01-{CHILD}.jsonl").write_text("\n".join(child) + "\n")
    report = analyze_path(tmp_path).to_json()
    assert len(report["sessions"]) == 1
    sub = next(a for a in report["agents"] if a["id"] == CHILD)
    assert (sub["parent"], sub["spawned_by"], sub["description"]) == ("main", "c0", "Bob")
    (command,) = report["commands"]
    assert (command["agent"], command["exit_code"]) == (CHILD, 1)
