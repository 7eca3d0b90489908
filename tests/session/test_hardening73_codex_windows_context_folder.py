"""The native Windows Codex CLI names its folder in its ``<environment_context>`` message as a
Windows path, ``<cwd>C:\\Users\\dev\\sglang</cwd>`` (openai/codex ``codex-rs/core/src/
environment_context.rs``). Where that message is the only word of the folder (a rollout of mid 2025,
with no ``session_meta`` cwd or ``turn_context``; Codex's requests kept by a proxy) only a POSIX
path was taken: the commands had no folder (``cwd`` null) and a relative ``workdir`` stayed
``python``. Now they run in the Windows folder, a
relative ``workdir`` joined to it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000273"
ENV = ("<environment_context>\n  <cwd>C:\\Users\\dev\\sglang</cwd>\n  <approval_policy>on-request</approval_policy>\n"
       "  <sandbox_mode>workspace-write</sandbox_mode>\n  <shell>powershell</shell>\n</environment_context>")


def _rl(n: int, payload: dict) -> dict:
    return {"timestamp": f"2025-07-18T05:00:{n:02d}.000Z", "type": "response_item", "payload": payload}


def _user(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def test_a_rollout_whose_only_folder_is_the_context_message(tmp_path: Path) -> None:
    lines = [
        {"timestamp": "2025-07-18T05:00:00.000Z", "type": "session_meta",
         "payload": {"id": T, "timestamp": "2025-07-18T05:00:00.000Z", "instructions": None}},
        _rl(1, _user(ENV)),
        _rl(2, _user("why does the EAGLE-3 test fail?")),
        _rl(3, {"type": "function_call", "name": "shell", "call_id": "c1", "arguments": json.dumps(
            {"command": ["powershell.exe", "-Command", "python -m pytest test/srt/test_eagle_infer.py -x"],
             "workdir": "python"})}),
        _rl(4, {"type": "function_call_output", "call_id": "c1", "output": json.dumps(
            {"output": "FAILED test/srt/test_eagle_infer.py::TestEAGLEEngine::test_correctness\n",
             "metadata": {"exit_code": 1, "duration_seconds": 12.5}})}),
        _rl(5, {"type": "function_call", "name": "shell", "call_id": "c2", "arguments": json.dumps(
            {"command": ["powershell.exe", "-Command", "git status"]})}),
        _rl(6, {"type": "function_call_output", "call_id": "c2", "output": json.dumps(
            {"output": "On branch main\n", "metadata": {"exit_code": 0, "duration_seconds": 0.1}})}),
    ]
    path = tmp_path / f"rollout-2025-07-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    # was [(..., 'python', 1), (..., None, 0)]
    assert [(c["command"], c["cwd"], c["exit_code"]) for c in doc["commands"]] == [
        ("python -m pytest test/srt/test_eagle_infer.py -x", "C:\\Users\\dev\\sglang\\python", 1),
        ("git status", "C:\\Users\\dev\\sglang", 0),
    ]


def test_a_proxied_chat_request_of_the_windows_cli(tmp_path: Path) -> None:
    messages = [{"role": "system", "content": "You are Codex."}, {"role": "user", "content": ENV},
                {"role": "user", "content": "why does the EAGLE-3 test fail?"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
                    "name": "shell_command", "arguments": json.dumps({"command": "git log -1", "workdir": "python"})}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nabc\n"}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-oss-120b", "messages": messages, "stream": True, "tools": []}))
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["cwd"]) for c in doc["commands"]] == [("git log -1", "C:\\Users\\dev\\sglang\\python")]
