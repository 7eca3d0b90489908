"""Kimi CLI's wire log, ``~/.kimi/sessions/<hash>/<id>/wire.jsonl`` beside ``context.jsonl``: a
metadata line, then ``{timestamp, message: {type, payload}}`` envelopes (MoonshotAI/kimi-cli
``src/kimi_cli/wire/file.py`` and ``wire/types.py``; the line shapes as the readers in
agentsview's and claude-view's tests quote real files). Before: named, it was a Claude Code session
of unknown records with no prompt and no command; in a folder only context.jsonl was read, with no
time at all."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "6b1d2c9e-1111-4222-8333-944455556666"
TAIL = "ssh gpu-3 tail -n 50 /var/log/vllm.log"


def _line(ts: float, kind: str, payload: dict) -> dict:
    return {"timestamp": ts, "message": {"type": kind, "payload": payload}}


def _wire() -> list[dict]:
    return [
        {"type": "metadata", "protocol_version": "1.10"},
        _line(1790153668.25, "TurnBegin",
              {"user_input": [{"type": "text", "text": "why is the draft never accepted?"}]}),
        _line(1790153668.26, "StepBegin", {"n": 1}),
        _line(1790153670.23, "ContentPart", {"type": "think", "think": "Check the ", "encrypted": None}),
        _line(1790153670.24, "ContentPart", {"type": "think", "think": "server log.", "encrypted": None}),
        _line(1790153670.50, "ContentPart", {"type": "text", "text": "Let me look"}),
        _line(1790153670.60, "ContentPart", {"type": "text", "text": " at the log."}),
        # the arguments stream in after the call
        _line(1790153671.00, "ToolCall", {"type": "function", "id": "Shell:0",
                                          "function": {"name": "Shell", "arguments": '{"command": "ssh gpu-3 '},
                                          "extras": None}),
        _line(1790153671.005, "StatusUpdate", {"context_usage": 0.01}),  # between a call and its arguments
        _line(1790153671.01, "ToolCallPart", {"arguments_part": 'tail -n 50 /var/log/vllm.log"}'}),
        _line(1790153672.00, "ApprovalRequest", {"id": "a1", "tool_call_id": "Shell:0", "sender": "Shell",
                                                 "action": "run shell command", "description": TAIL, "display": []}),
        _line(1790153673.00, "ApprovalResponse", {"request_id": "a1", "response": "approve"}),
        _line(1790153675.00, "ToolResult", {"tool_call_id": "Shell:0", "return_value": {
            "is_error": True, "output": "ssh: connect to host gpu-3 port 22: Connection refused\n",
            "message": "Command failed with exit code: 255.", "display": [{"type": "brief", "text": "Failed"}]}}),
        # a sub-agent's calls come wrapped, with call ids of its own (Shell:0 again)
        _line(1790153676.00, "SubagentEvent", {"parent_tool_call_id": "Task:1", "agent_id": "sub-1",
                                               "subagent_type": "coder", "event": {"type": "ToolCall", "payload": {
                                                   "type": "function", "id": "Shell:0", "function": {
                                                       "name": "Shell", "arguments": '{"command": "nvidia-smi"}'}}}}),
        _line(1790153677.00, "SubagentEvent", {"parent_tool_call_id": "Task:1", "agent_id": "sub-1",
                                               "subagent_type": "coder", "event": {"type": "ToolResult", "payload": {
                                                   "tool_call_id": "Shell:0", "return_value": {
                                                       "is_error": False, "output": "No devices were found\n",
                                                       "message": "Command executed successfully."}}}}),
        _line(1790153678.00, "StatusUpdate",
              {"context_usage": 0.02, "token_usage": {"output": 10}, "message_id": "m1"}),
        _line(1790153679.00, "TurnEnd", {}),
    ]


def _context() -> list[dict]:
    return [
        {"role": "_system_prompt", "content": "You are Kimi."},
        {"role": "user", "content": "why is the draft never accepted?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Let me look at the log."}],
         "tool_calls": [{"type": "function", "id": "Shell:0",
                         "function": {"name": "Shell", "arguments": json.dumps({"command": TAIL})}}]},
        {"role": "tool", "content": [{"type": "text", "text": "<system>ERROR</system>"},
                                     {"type": "text", "text": "<system>Command failed with exit code: 255.</system>"},
                                     {"type": "text",
                                      "text": "ssh: connect to host gpu-3 port 22: Connection refused\n"}],
         "tool_call_id": "Shell:0"},
    ]


def _session(root: Path, wire: list[dict]) -> Path:
    folder = root / ".kimi" / "sessions" / "0f3a9c" / SESSION
    folder.mkdir(parents=True)
    (folder / "wire.jsonl").write_text("".join(json.dumps(r) + "\n" for r in wire), encoding="utf-8")
    (folder / "context.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _context()), encoding="utf-8")
    return folder


def test_a_wire_log_gives_prompts_replies_commands_exit_codes_and_times(tmp_path):
    doc = analyze_path(_session(tmp_path, _wire()) / "wire.jsonl").to_json()
    (session,) = doc["sessions"]
    assert (session["id"], session["format"], session["unknown_types"]) == (SESSION, "kimi", 0)
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2026-09-23T08:54:28.250Z",
                                                                        "2026-09-23T08:54:39.000Z")
    assert [p["text"] for p in doc["prompts"]] == ["why is the draft never accepted?"]
    assert [(c["agent"], c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("main", TAIL, "gpu-3", 255, True), ("coder:sub-1", "nvidia-smi", None, 0, False)]
    assert any(a["id"] == "coder:sub-1" and a["parent"] == "main" for a in doc["agents"])


def test_a_kimi_session_folder_is_read_once_from_its_wire_log(tmp_path):
    folder = _session(tmp_path, _wire())
    for path in (folder, tmp_path / ".kimi", tmp_path):
        doc = analyze_path(path).to_json()
        assert [(s["id"], s["format"]) for s in doc["sessions"]] == [(SESSION, "kimi")], path
        assert [c["command"] for c in doc["commands"]] == [TAIL, "nvidia-smi"], path


def test_an_empty_wire_log_leaves_the_context(tmp_path):
    folder = _session(tmp_path, [{"type": "metadata", "protocol_version": "1.10"}])
    doc = analyze_path(folder).to_json()
    assert [(s["id"], s["format"]) for s in doc["sessions"]] == [(SESSION, "openai")]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [(TAIL, 255)]

