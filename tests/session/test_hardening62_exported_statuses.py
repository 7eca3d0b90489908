"""A Claude Code session kept in a file other than its JSONL, which the analysis reads as a text
log: the claude-prompts Markdown export (goodsch/brain_explore ``claude-prompts/agent-bfa52189-
untitled-full.md``, commit 027527979c4bb59f12b53bcd9694cf94feb6da6c: each ``tool_result`` block with
its ``is_error``) and a printed Agent SDK log (``ToolResultBlock(..., is_error=False)``,
anthropics/claude-agent-sdk-python ``src/claude_agent_sdk/types.py``). Both record whether each
command failed: Claude Code's Bash tool reports a non-zero exit as ``is_error`` with "Exit code N".
Before: a text log's statuses count as unrecorded, so a command that exited 0 but printed a failure
it was told to ignore (``curl ... || true`` with the server still down) was a failed command with a
connection error. Now a clean result is the 0 the session's JSONL reads as. The exports below are
written in the real files' shape (the commands and outputs mine)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening62_claude_prompts_export import HEAD, _message

_CURL = "curl -s localhost:30000/health || true"
_REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Couldn't connect to server"
_FAILED = "python3 checks/load_draft.py"
_TRACEBACK = ("Exit code 1\nTraceback (most recent call last):\n  File \"checks/load_draft.py\", line 4, in <module>\n"
              "    import safetensors\nModuleNotFoundError: No module named 'safetensors'")


def _prompts_export(tmp_path: Path, curl_is_error: bool = False) -> Path:
    text = HEAD + "".join([
        _message("User", "11/30/2025, 11:38:19 PM", "is the draft server up?"),
        _message("Assistant", "11/30/2025, 11:38:20 PM", [
            {"type": "tool_use", "id": "toolu_01Qm", "name": "Bash", "input": {"command": _CURL}}]),
        _message("User", "11/30/2025, 11:38:21 PM", [
            {"tool_use_id": "toolu_01Qm", "type": "tool_result", "content": _REFUSED, "is_error": curl_is_error}]),
        _message("Assistant", "11/30/2025, 11:38:22 PM", [
            {"type": "tool_use", "id": "toolu_01Rn", "name": "Bash", "input": {"command": _FAILED}}]),
        _message("User", "11/30/2025, 11:38:25 PM", [
            {"tool_use_id": "toolu_01Rn", "type": "tool_result", "content": _TRACEBACK, "is_error": True}]),
    ])
    path = tmp_path / "b735bf9a-untitled-full.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_clean_result_in_a_claude_prompts_export_is_a_success(tmp_path: Path) -> None:
    doc = analyze_path(_prompts_export(tmp_path)).to_json()
    assert [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"]] == [
        (_CURL, False, 0), (_FAILED, True, 1)]
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [("traceback", "ModuleNotFoundError")]


def test_the_export_reads_as_the_sessions_own_jsonl(tmp_path: Path) -> None:
    """The same three lines as Claude Code wrote them give the same commands and errors."""
    export = analyze_path(_prompts_export(tmp_path)).to_json()
    lines = [
        {"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": "2025-11-30T23:38:19", "cwd": "/w",
         "message": {"role": "user", "content": "is the draft server up?"}},
        {"type": "assistant", "uuid": "a1", "sessionId": "s", "timestamp": "2025-11-30T23:38:20", "cwd": "/w",
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "toolu_01Qm", "name": "Bash", "input": {"command": _CURL}}]}},
        {"type": "user", "uuid": "u2", "sessionId": "s", "timestamp": "2025-11-30T23:38:21", "cwd": "/w",
         "message": {"role": "user", "content": [
             {"tool_use_id": "toolu_01Qm", "type": "tool_result", "content": _REFUSED, "is_error": False}]}},
    ]
    jsonl = tmp_path / "s.jsonl"
    jsonl.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    session = analyze_path(jsonl).to_json()
    assert [(c["is_error"], c["exit_code"]) for c in session["commands"]] == [(False, 0)]
    assert session["errors"] == [] and export["commands"][0]["exit_code"] == session["commands"][0]["exit_code"]


def test_a_result_the_export_marks_failed_still_fails(tmp_path: Path) -> None:
    doc = analyze_path(_prompts_export(tmp_path, curl_is_error=True)).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [(_CURL, True), (_FAILED, True)]
    assert [e["kind"] for e in doc["errors"]] == ["connection", "traceback"]


_SDK_LOG = f"""\
[2026-01-31T19:31:00.138584+00:00] AssistantMessage(content=[ToolUseBlock(id='toolu_01Ut', name='Bash', \
input={{'command': '{_CURL}'}})], model='claude-sonnet-4-5-20250929', parent_tool_use_id=None, error=None)
[2026-01-31T19:31:02.000000+00:00] UserMessage(content=[ToolResultBlock(tool_use_id='toolu_01Ut', \
content="{_REFUSED}", is_error=False)], uuid='u-1', parent_tool_use_id=None)
[2026-01-31T19:31:06.000000+00:00] ResultMessage(subtype='success', duration_ms=7000, is_error=False, \
num_turns=1, session_id='b7e1', result='The server is down.')
$ python3 serve_check.py
curl: (7) Failed to connect to localhost port 30001 after 0 ms: Couldn't connect to server
"""


def test_a_clean_result_in_a_printed_sdk_log_is_a_success(tmp_path: Path) -> None:
    """The SDK's messages keep their statuses; the terminal around them (a shell command typed
    after the run) is still a text log, its failure read from its output."""
    path = tmp_path / "agent_run.log"
    path.write_text(_SDK_LOG, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"]] == [
        (_CURL, False, 0), ("python3 serve_check.py", True, None)]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("connection", _REFUSED.replace("30000", "30001"))]
