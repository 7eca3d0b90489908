"""A Chat Completions stream cut inside a call's arguments keeps the call but gives no command
(formats.chat_stream). The assembled arguments, ``{"command`` (a JSON object cut short), were taken
for a bare command string by the chat reader: ``{"command`` was listed among the session's commands
(a distilled playbook could run it)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

ARGS = json.dumps({"command": "ssh gpu-node-3 nvidia-smi"})


def _chunk(delta: dict) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1767225600, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def test_a_call_cut_inside_its_arguments_gives_no_command(tmp_path):
    first = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "bash", "arguments": ARGS[:9]}}
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in [_chunk({"content": "Checking."}),
                                                           _chunk({"tool_calls": [first]})]))
    doc = analyze_path(path).to_json()
    assert doc["commands"] == []
    assert doc["stats"]["tool_calls"] == 1


def test_a_bare_command_string_is_still_a_command(tmp_path):
    # some stacks send the command itself as the arguments, a brace group among them
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{ nvidia-smi; uptime; }'}}]}
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps(message) + "\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == ["{ nvidia-smi; uptime; }"]
