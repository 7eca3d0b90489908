"""Cursor CLI's ``cursor-agent -p --output-format stream-json``: Claude Code's stream-json lines
(read as those) and its own ``tool_call`` lines, ``started`` then ``completed``, the tool under
``tool_call.<tool>ToolCall`` with ``args`` and a ``result`` of ``success``/``failure``
``{command, exitCode, stdout, stderr}``, ``error{message}`` or a refusal (``rejected``); with
``--stream-partial-output``, ``thinking`` deltas (shapes as several independent runners'
fixtures of the CLI's output write them). Before: unknown lines, no command, exit code or error."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _tool(call_id: str, subtype: str, key: str, body: dict) -> dict:
    return {"type": "tool_call", "subtype": subtype, "call_id": call_id, "tool_call": {key: body}, "session_id": "s1"}


SSH = "ssh gpu-node-3 nvidia-smi"
LINES = [
    {"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": "/w", "session_id": "s1", "model": "Auto"},
    {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "check vllm on gpu-node-3"}]},
     "session_id": "s1"},
    {"type": "thinking", "subtype": "delta", "text": "The GPU first.", "session_id": "s1"},
    {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Checking."}]},
     "session_id": "s1"},
    _tool("c1", "started", "shellToolCall", {"args": {"command": SSH, "workingDirectory": "", "timeout": 300000}}),
    _tool("c1", "completed", "shellToolCall", {"args": {"command": SSH}, "result": {"failure": {
        "command": SSH, "exitCode": 255, "stdout": "", "stderr": "ssh: connect to host gpu-node-3 port 22: Connection refused"}}}),
    _tool("c2", "started", "shellToolCall", {"args": {"command": "rm -rf /data/ckpt"}}),
    _tool("c2", "completed", "shellToolCall", {"args": {"command": "rm -rf /data/ckpt"}, "result": {"rejected": {
        "command": "rm -rf /data/ckpt", "reason": "Command not in allowlist"}}}),
    _tool("c3", "started", "readToolCall", {"args": {"path": "/w/launch.sh"}}),
    _tool("c3", "completed", "readToolCall", {"args": {"path": "/w/launch.sh"}, "result": {"success": {
        "content": "python -m sglang.launch_server --speculative-algorithm EAGLE3"}}}),
    _tool("c4", "started", "shellToolCall", {"args": {"command": "nvidia-smi"}}),
    _tool("c4", "completed", "shellToolCall", {"args": {"command": "nvidia-smi"}, "result": {"success": {
        "command": "nvidia-smi", "exitCode": 0, "stdout": "NVIDIA-SMI 550.54\n", "stderr": ""}}}),
    {"type": "result", "subtype": "success", "duration_ms": 5200, "is_error": False, "result": "Refused.", "session_id": "s1"},
]


def test_cursor_cli_tool_lines_are_calls_with_their_results(tmp_path):
    path = tmp_path / "cursor-run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    doc = analyze_path(path).to_json()
    assert doc["stats"]["unknown_types"] == 0
    assert doc["stats"]["tool_calls"] == 4
    got = {c["command"]: (c["exit_code"], c["is_error"], c["host"]) for c in doc["commands"]}
    assert got == {SSH: (255, True, "gpu-node-3"), "rm -rf /data/ckpt": (None, True, None), "nvidia-smi": (0, False, None)}
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("connection", "ssh: connect to host gpu-node-3 port 22: Connection refused"),
        ("denied", "Command not in allowlist")]
