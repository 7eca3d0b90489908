"""Continue's saved sessions, ``~/.continue/sessions/<sessionId>.json`` (continuedev/continue
``core/util/history.ts`` writes ``sessionId``, ``title``, ``workspaceDirectory``, ``history`` in that
order; each history item ``{message, contextItems, toolCallStates?}``, ``core/index.d.ts``). The
terminal tool's status (``Command failed with exit code N``, ``core/tools/implementations/
runTerminalCommand.ts``) is in the call's state, not in the tool message saved. Before: read as a
Claude Code session of one unknown record, no prompt and no command; a home scan passed
``~/.continue`` by."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

SID = "5d1c7a1e-0c43-4a8e-9f7b-1f6d1a3c2b10"
LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"


def _call(call_id: str, command: str) -> dict:
    return {"id": call_id, "type": "function", "function": {
        "name": "run_terminal_command", "arguments": json.dumps({"command": command, "waitForCompletion": True})}}


def _output(content: str, status: str) -> list[dict]:
    return [{"name": "Terminal", "description": "Terminal command output", "content": content, "status": status}]


def _session(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    first, second = _call("call_1", LAUNCH), _call("call_2", "nvidia-smi")
    session = {"sessionId": SID, "title": "eagle3 acceptance", "workspaceDirectory": "file:///work/spec", "history": [
        {"message": {"role": "user", "content": [{"type": "text", "text": "why is the draft never accepted on gpu-3?"}],
                     "id": "u1"}, "contextItems": []},
        {"message": {"role": "assistant", "content": "", "id": "a0"}, "contextItems": []},
        {"message": {"role": "thinking", "content": "Start the server and read its error.", "id": "t0"},
         "contextItems": []},
        {"message": {"role": "assistant", "content": "Starting the server.", "toolCalls": [first], "id": "a1"},
         "contextItems": [], "toolCallStates": [{
             "toolCallId": "call_1", "toolCall": first, "status": "done", "parsedArgs": {"command": LAUNCH},
             "output": _output("ValueError: draft vocab 32000 != target 151936", "Command failed with exit code 1")}]},
        {"message": {"role": "tool", "content": "ValueError: draft vocab 32000 != target 151936",
                     "toolCallId": "call_1", "id": "r1"}, "contextItems": []},
        {"message": {"role": "assistant", "content": "", "toolCalls": [second], "id": "a2"}, "contextItems": [],
         "toolCallStates": [{"toolCallId": "call_2", "toolCall": second, "status": "done",
                             "parsedArgs": {"command": "nvidia-smi"},
                             "output": _output("GPU 0: H100", "Command completed")}]},
        {"message": {"role": "tool", "content": "GPU 0: H100", "toolCallId": "call_2", "id": "r2"}, "contextItems": []},
    ], "mode": "agent", "chatModelTitle": "Claude Sonnet 4"}
    path = folder / f"{SID}.json"
    path.write_text(json.dumps(session, indent=2), encoding="utf-8")  # as HistoryManager.save writes it
    index = [{"sessionId": SID, "title": "eagle3 acceptance", "dateCreated": "1790153600000",
              "workspaceDirectory": "file:///work/spec"}]
    (folder / "sessions.json").write_text(json.dumps(index, indent=2), encoding="utf-8")
    return path


def test_a_continue_session_gives_its_prompt_commands_and_exit_codes(tmp_path):
    doc = analyze_path(_session(tmp_path / "sessions")).to_json()
    [session] = doc["sessions"]
    assert (session["id"], session["format"], session["unknown_types"]) == (SID, "openai", 0)
    assert [p["text"] for p in doc["prompts"]] == ["why is the draft never accepted on gpu-3?"]
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (LAUNCH, "gpu-3", 1, True), ("nvidia-smi", None, None, False)]


def test_a_home_scan_reads_continue_s_sessions_and_not_its_index_or_dev_data(tmp_path):
    home = tmp_path / "home"
    _session(home / ".continue" / "sessions")
    dev = home / ".continue" / "dev_data" / "0.2.0"
    dev.mkdir(parents=True)
    (dev / "chatInteraction.jsonl").write_text('{"prompt": "x", "completion": "y"}\n', encoding="utf-8")
    (home / ".continue" / "config.json").write_text("{}", encoding="utf-8")
    assert [(s.id, s.format) for s in discover(home)] == [(SID, "openai")]


def test_a_project_s_own_continue_folder_is_still_passed_by(tmp_path):
    project = tmp_path / "proj"
    rules = project / ".continue" / "rules"
    rules.mkdir(parents=True)
    (rules / "style.md").write_text("$ rm -rf build\n", encoding="utf-8")
    (project / "run.log").write_text("$ nvidia-smi\nNo devices were found\n", encoding="utf-8")
    assert [s.path.name for s in discover(project)] == ["run.log"]


def test_continue_s_index_named_is_one_clear_line(tmp_path):
    _session(tmp_path / "sessions")
    with pytest.raises(UsageError, match="Continue's list of its sessions, not a session"):
        discover(tmp_path / "sessions" / "sessions.json")
    assert [s.id for s in discover(tmp_path / "sessions")] == [SID]


def test_a_session_of_the_single_call_releases_gives_its_call_from_the_state(tmp_path):
    """Continue kept one ``toolCallState`` an item before it ran calls in parallel (July 2025,
    ``core/index.d.ts``); a reply may carry its call only there, and no tool message answer it."""
    call = _call("call_1", LAUNCH)
    session = {"sessionId": SID, "title": "older", "workspaceDirectory": "file:///work/spec", "history": [
        {"message": {"role": "user", "content": "start it"}, "contextItems": []},
        {"message": {"role": "assistant", "content": ""}, "contextItems": [], "toolCallState": {
            "toolCallId": "call_1", "toolCall": call, "status": "done", "parsedArgs": {"command": LAUNCH},
            "output": _output("ValueError: draft vocab 32000 != target 151936", "Command failed with exit code 1")}},
    ]}
    path = tmp_path / f"{SID}.json"
    path.write_text(json.dumps(session), encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, 1, True)]
