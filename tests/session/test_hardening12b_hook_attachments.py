"""Claude Code 2.1 hook results: what a hook said when it blocked a command or failed.

The CLI writes an ``attachment`` line per hook outcome, ``{"type": "attachment", "attachment":
{"type": "hook_blocking_error", "hookName": "PreToolUse:Bash", "toolUseID", "hookEvent",
"blockingError": {"blockingError": "[cmd]: stderr", "command": "cmd"}}}``, and
``hook_non_blocking_error{stderr, stdout, exitCode}`` when a hook exits with another status (the
``HookAttachment`` type as reconstructions of the CLI and independent transcript readers give
it). A PreToolUse block also answers the call with its own tool_result, ``is_error: true``,
``"PreToolUse:Bash hook error: [cmd]: reason"`` (the text transcript readers test against,
checked with CLI 2.1.x). The attachments were kept as ``other`` events with no text: the
timeline did not say which hook stopped the agent, or why."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

SID = "0b6c1d2e-7f80-4a91-b2c3-d4e5f6a7b8c9"
HOOK = "~/.claude/hooks/no-force-push.sh"
REASON = "force push to main is blocked by policy"


def _line(uuid: str, kind: str, at: str, **fields) -> dict:
    return {"type": kind, "uuid": uuid, "parentUuid": None, "sessionId": SID, "timestamp": at, "cwd": "/work",
            "isSidechain": False, "userType": "external", "version": "2.1.31", **fields}


def _session(tmp_path: Path) -> Path:
    lines = [
        _line("u1", "user", "2026-02-01T10:00:00Z",
              message={"role": "user", "content": "Push the EAGLE-3 config fix to main"}),
        _line("a1", "assistant", "2026-02-01T10:00:04Z", message={
            "id": "msg_a1", "role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_01Push", "name": "Bash",
                 "input": {"command": "git push --force origin main", "description": "Push the fix"}}]}),
        _line("h1", "attachment", "2026-02-01T10:00:05Z", attachment={
            "type": "hook_blocking_error", "hookName": "PreToolUse:Bash", "toolUseID": "toolu_01Push",
            "hookEvent": "PreToolUse", "blockingError": {"blockingError": f"[{HOOK}]: {REASON}", "command": HOOK}}),
        _line("u2", "user", "2026-02-01T10:00:05Z", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01Push", "is_error": True,
             "content": f"PreToolUse:Bash hook error: [{HOOK}]: {REASON}"}]}),
        _line("h2", "attachment", "2026-02-01T10:00:09Z", attachment={
            "type": "hook_non_blocking_error", "hookName": "PostToolUse:Bash", "toolUseID": "toolu_01Log",
            "hookEvent": "PostToolUse", "stderr": "jq: command not found", "stdout": "", "exitCode": 127,
            "command": "~/.claude/hooks/log.sh", "durationMs": 12}),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_the_hook_says_why_in_the_timeline(tmp_path: Path) -> None:
    path = _session(tmp_path)
    events = list(claude_code.read(path, Cursor(session=SID, agent="main", file=str(path)), ReadStats()))
    notes = [(e.raw_type, e.text) for e in events if e.kind == "system"]
    assert notes == [
        ("attachment:hook_blocking_error", f"PreToolUse:Bash hook blocked: [{HOOK}]: {REASON}"),
        ("attachment:hook_non_blocking_error", "PostToolUse:Bash hook failed (exit 127): jq: command not found"),
    ]


def test_a_blocked_command_is_one_failed_call_not_two(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path))
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 1)
    assert [(c.command, c.is_error) for c in a.commands] == [("git push --force origin main", True)]
    assert a.stats["unknown_types"] == 0
