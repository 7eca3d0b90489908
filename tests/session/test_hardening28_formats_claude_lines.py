"""Claude Code lines of late-2026 CLIs (2.1.2xx) around the messages: ``attachment`` lines (hook
results, reminders, tool deltas: daaain/claude-code-log PR #149), ``progress`` lines of a command
and of a sub-agent, ``queue-operation``, a ``Read`` of an image answered by an image block, a
``compact_boundary`` whose ``parentUuid`` is null and ``logicalParentUuid`` names the line before
(TRANSCRIPTS.md 1a), a retry's ``api_error``, and a line of a kind no CLI wrote before. They are read
and kept; the new kind is counted as unknown, never fatal. Before: an attachment whose ``type`` was a
list or an object (a damaged or future line) stopped the analysis with a TypeError traceback."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

SESSION = "6c1e0000-0000-4000-8000-00000000cc01"
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def _lines(odd_attachment_type) -> list[dict]:
    lines: list[dict] = []

    def add(kind: str, **fields) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n:03d}", "parentUuid": f"u{n - 1:03d}" if n > 1 else None,
                      "sessionId": SESSION, "timestamp": f"2026-11-20T10:{n:02d}:00.000Z", "cwd": "/work",
                      "version": "2.1.240", "isSidechain": False, "userType": "external", **fields})

    def call(n: int, name: str, tool_input: dict) -> dict:
        return {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-opus-4-5",
                "content": [{"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": tool_input}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}

    add("user", message={"role": "user", "content": "EAGLE-3 is slower than the baseline on gpu01; check it"})
    add("attachment", attachment={"type": "hook_success", "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit",
                                  "content": "", "stdout": "ok", "exitCode": 0, "command": "~/.claude/hooks/log.sh"})
    add("attachment", attachment={"type": odd_attachment_type, "content": []})
    add("attachment", attachment={"type": "deferred_tools_delta", "added": ["mcp__github__search"], "removed": []})
    add("assistant", requestId="req_1", message=call(1, "Bash", {"command": "ssh gpu01 nvidia-smi",
                                                                 "description": "GPU state"}))
    add("progress", data={"type": "bash_progress", "output": "| GPU 0 |", "fullOutput": "| GPU 0 |",
                          "elapsedTimeSeconds": 2, "totalLines": 1}, toolUseID="bash-progress-0", parentToolUseID="toolu_1")
    add("user", message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
         "content": "Exit code 255\nssh: connect to host gpu01 port 22: Connection refused"}]},
        toolUseResult="Error: Exit code 255\nssh: connect to host gpu01 port 22: Connection refused")
    add("assistant", requestId="req_2", message=call(2, "Read", {"file_path": "/work/plots/accept_len.png"}))
    add("user", message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]}]},
        toolUseResult={"type": "image", "file": {"base64": PNG, "type": "image/png", "originalSize": 68}})
    add("queue-operation", operation="enqueue", content="also check gpu02")
    add("queue-operation", operation="remove")
    add("system", subtype="api_error", level="error", retryInMs=2000, retryAttempt=1, maxRetries=10,
        error={"status": 529, "error": {"type": "overloaded_error", "message": "Overloaded"}})
    add("system", subtype="compact_boundary", content="Conversation compacted", level="info",
        compactMetadata={"trigger": "auto", "preTokens": 167012})
    lines[-1].update(parentUuid=None, logicalParentUuid=lines[-2]["uuid"])
    add("user", isCompactSummary=True, isVisibleInTranscriptOnly=True, message={
        "role": "user", "content": "This session is being continued from a previous conversation that ran out of "
                                   "context. The conversation is summarized below:\nAnalysis: gpu01 refuses SSH."})
    add("progress", data={"type": "agent_progress", "agentId": "a1b2c3", "prompt": "check gpu02", "message": {
        "type": "assistant", "uuid": "s1", "timestamp": "2026-11-20T10:15:30.000Z",
        "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s1", "name": "Bash",
                                                      "input": {"command": "ssh gpu02 nvidia-smi"}}]}}},
        toolUseID="agent_msg_1", parentToolUseID="toolu_9")
    add("kv-cache-checkpoint", checkpoint={"tokens": 120000})  # a kind of line no CLI wrote before
    add("assistant", requestId="req_3", message={
        "id": "msg_3", "type": "message", "role": "assistant", "model": "claude-opus-4-5", "stop_reason": "end_turn",
        "content": [{"type": "text", "text": "gpu01 refuses SSH; the drafter was never loaded."}]})
    return lines


@pytest.mark.parametrize("odd_type", ["todo_reminder", ["todo_reminder"], {"kind": "todo_reminder"}],
                         ids=["string", "list", "object"])
def test_late_2026_lines_are_read_and_a_new_kind_counted(tmp_path, odd_type):
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in _lines(odd_type)))
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["events"], session["unknown_types"], session["broken_json"]) == (17, 1, 0)
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu01 nvidia-smi", 255), ("ssh gpu02 nvidia-smi", None)]
    assert [e["message"] for e in doc["errors"]] == ["ssh: connect to host gpu01 port 22: Connection refused"]
    assert [p["text"] for p in doc["prompts"]] == ["EAGLE-3 is slower than the baseline on gpu01; check it"]
