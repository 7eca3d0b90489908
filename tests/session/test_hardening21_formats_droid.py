"""Factory Droid. Its saved sessions (``~/.factory/sessions/<cwd slug>/<id>.jsonl``: a
``session_start`` line, then ``{"type": "message", "message": {role, content blocks}}``) end each
Execute result with ``[Process exited with code N]`` (the line BloopAI/vibe-kanban
``crates/executors/src/executors/droid/normalize_logs.rs`` takes the exit code from; the session
in phnx-labs/agi-cli ``apps/cli/src/lib/teams/__tests__/testdata/droid-stream-json.jsonl``),
which was not read: a failed command had no exit code and was no failure. ``droid exec
--output-format stream-json`` (``tool_call``/``tool_result``/``completion`` events, the
``DroidJson`` of the same normalize_logs.rs) was read as OpenAI chat: no command at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

SESSION = "03fac085-0000-4000-8000-00000000e001"
LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --speculative-num-steps 5"


def _jsonl(path: Path, *records: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _message(n: int, role: str, content: list) -> dict:
    return {"type": "message", "id": f"msg-{n}", "timestamp": f"2026-10-02T08:00:0{n}.000Z",
            "message": {"role": role, "content": content}}


def _execute(n: int, command: str) -> dict:
    return _message(n, "assistant", [{"type": "tool_use", "id": f"toolu_{n}", "name": "Execute",
                                      "input": {"command": command, "riskLevel": "low",
                                                "riskLevelReason": "Starts a local server."}}])


def _output(n: int, text: str, **flags) -> dict:
    return _message(n, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{n - 1}", "content": text, **flags}])


def _session(root: Path) -> Path:
    return _jsonl(root / "-work-spec" / f"{SESSION}.jsonl",
                  {"type": "session_start", "id": SESSION, "title": "eagle3 accept", "owner": "mei", "version": 2,
                   "cwd": "/work/spec"},
                  _message(0, "user", [{"type": "text", "text": "why is the accept length 1?"}]),
                  _execute(1, LAUNCH),
                  _output(2, "RuntimeError: draft hidden size 4096 != 5120\n\n[Process exited with code 1]",
                          is_error=False),
                  _execute(3, "nvidia-smi"),
                  _output(4, "GPU 0: NVIDIA H100 80GB HBM3\n\n[Process exited with code 0]", is_error=False),
                  {"type": "todo_state", "todos": [{"content": "check draft", "status": "in_progress"}]})


def test_a_saved_session_gives_its_exit_codes(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (LAUNCH, 1, True), ("nvidia-smi", 0, False)]
    (session,) = doc["sessions"]
    assert session["id"] == SESSION and session["unknown_types"] == 0


def _stream(path: Path) -> Path:
    run = {"session_id": "sid-7"}
    return _jsonl(path,
                  {"type": "system", "subtype": "init", "cwd": "/work/spec", "model": "claude-sonnet-4-5",
                   "tools": ["Execute", "Read"], **run},
                  {"type": "message", "role": "user", "id": "m1", "text": "check the draft", "timestamp": 1767812641000,
                   **run},
                  {"type": "tool_call", "id": "call_1", "messageId": "m2", "toolId": "Execute", "toolName": "Execute",
                   "parameters": {"command": LAUNCH, "riskLevel": "medium"}, "timestamp": 1767812642000, **run},
                  {"type": "tool_result", "id": "call_1", "messageId": "m2", "toolId": "Execute", "isError": False,
                   "value": "RuntimeError: CUDA out of memory\n\n[Process exited with code 1]",
                   "timestamp": 1767812643000, **run},
                  {"type": "tool_call", "id": "call_2", "messageId": "m3", "toolId": "Execute", "toolName": "Execute",
                   "parameters": {"command": "touch /etc/x"}, "timestamp": 1767812644000, **run},
                  # no id: paired with the oldest open call, as the client does
                  {"type": "tool_result", "messageId": "m3", "toolId": "Execute", "isError": True,
                   "error": {"type": "permission", "message": "insufficient permissions"},
                   "timestamp": 1767812645000, **run},
                  {"type": "tool_call", "id": "call_3", "messageId": "m4", "toolId": "Read", "toolName": "Read",
                   "parameters": {"file_path": "/work/spec/server.log"}, "timestamp": 1767812646000, **run},
                  {"type": "tool_result", "id": "call_3", "messageId": "m4", "toolId": "Read", "isError": False,
                   "value": "ok", "timestamp": 1767812647000, **run},
                  {"type": "completion", "finalText": "The draft does not fit in memory.", "numTurns": 4,
                   "durationMs": 9000, "timestamp": 1767812648000, **run})


def test_the_exec_stream_is_read_with_its_commands(tmp_path):
    path = _stream(tmp_path / "droid-run.jsonl")
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert session["format"] == "droid" and session["unknown_types"] == 0
    assert session["first_timestamp"].startswith("2026-01-07T")
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (LAUNCH, 1, True), ("touch /etc/x", None, True)]
    assert [p["text"] for p in doc["prompts"]] == ["check the draft"]


def test_the_exec_stream_forced_as_openai_is_refused(tmp_path):
    path = _stream(tmp_path / "droid-run.jsonl")
    with pytest.raises(UsageError, match="Factory Droid"):
        discover(path, "openai")


def test_claude_code_stream_json_is_not_taken(tmp_path):
    """Claude Code's ``-p --output-format stream-json`` opens with the same ``system`` init."""
    path = _jsonl(tmp_path / "claude-run.jsonl",
                  {"type": "system", "subtype": "init", "session_id": "s1", "cwd": "/w", "tools": ["Bash"],
                   "model": "claude-sonnet-4-5", "uuid": "u0"},
                  {"type": "assistant", "session_id": "s1", "uuid": "u1",
                   "message": {"role": "assistant", "content": [
                       {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}})
    (source,) = discover(path)
    assert source.format == "claude-code"
