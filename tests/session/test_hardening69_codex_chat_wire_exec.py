"""Codex's unified exec on the Chat Completions wire (``wire_api = "chat"``, a local vLLM or SGLang
server): ``exec_command {cmd}`` returns after its first output while the command still runs ("Process
running with session ID 7"), and the model polls it with ``write_stdin {session_id: 7}`` until a poll
says "Process exited with code 1" (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``).
On the Responses wire the poll's status is the command's (codex.ResponseItems); read from a chat-wire
request (``codex-rs/codex-api/src/requests/chat.rs``: each call a tool call, each output the tool
message), the training run that ran out of memory ended with no exit status."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_RUNNING = ("Chunk ID: a1b2\nWall time: 10.0012 seconds\nProcess running with session ID 7\n"
            "Original token count: 4\nOutput:\nstep 1 loss 5.21\n")
_ENDED = ("Chunk ID: c3d4\nWall time: 2.1000 seconds\nProcess exited with code 1\nOriginal token count: 12\n"
          "Output:\nTraceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory.\n")


def _call(call_id: str, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def _request(tmp_path: Path, messages: list) -> Path:
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-oss-120b", "stream": True, "tools": [], "messages": [
        {"role": "system", "content": "You are Codex."}, {"role": "user", "content": "train the eagle3 draft"},
        *messages]}))
    return path


def test_a_polled_command_ends_with_the_status_its_poll_reports(tmp_path: Path) -> None:
    path = _request(tmp_path, [
        _call("call_1", "exec_command", {"cmd": "python train_eagle3.py", "yield_time_ms": 10000}),
        {"role": "tool", "tool_call_id": "call_1", "content": _RUNNING},
        _call("call_2", "write_stdin", {"session_id": 7, "chars": "", "yield_time_ms": 30000}),
        {"role": "tool", "tool_call_id": "call_2", "content": _ENDED}])
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("python train_eagle3.py", 1)]


def test_another_programs_exec_command_is_read_as_before(tmp_path: Path) -> None:
    """A tool of the same name whose arguments are no Codex's (no ``cmd``) is a chat tool call."""
    path = _request(tmp_path, [
        _call("call_1", "exec_command", {"command": "nvidia-smi"}),
        {"role": "tool", "tool_call_id": "call_1", "content": "NVIDIA-SMI has failed\nexit code: 9"}])
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]
