"""A call Claude Code's permission check refused is one that never ran, whatever its result says.

The user line of such a call's result carries ``toolDenialKind`` ("permission-rule",
"user-rejected", "automode-blocked", ...: claude-code 2.1.195's ``useCanUseTool``). A PreToolUse
hook that answers ``permissionDecision: "deny"`` (or an SDK host's refusal) gets the hook's reason
alone as the result: read from the text only, the ``git push --force`` that never ran was a failed
command, its error the reason."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

REASON = "jev-cops: Irreversible git operation on the default branch."


def _session(tmp_path: Path, result: str, **extra) -> Path:
    answer = {"type": "user", "sessionId": "s", "timestamp": "2026-03-02T10:00:06Z", "message": {
        "role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content": result}]}}
    answer.update(extra)
    lines = [
        {"type": "user", "sessionId": "s", "cwd": "/r", "version": "2.1.268", "timestamp": "2026-03-02T10:00:00Z",
         "message": {"role": "user", "content": "push the branch"}},
        {"type": "assistant", "sessionId": "s", "timestamp": "2026-03-02T10:00:05Z", "message": {
            "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                              "input": {"command": "git push --force origin main"}}]}},
        answer,
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_call_a_hook_denied_with_its_reason_alone_never_ran(tmp_path):
    for kind in ("permission-rule", "user-rejected", "automode-unavailable"):
        doc = analyze_path(_session(tmp_path, REASON, toolDenialKind=kind)).to_json()
        assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
            ("denied", f"Claude Code denied this call (toolDenialKind {kind}): {REASON}")], kind
        assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(None, True)]


def test_the_reason_in_tool_use_error_markup_is_read_without_it(tmp_path):
    doc = analyze_path(_session(tmp_path, f"<tool_use_error>Error: {REASON}</tool_use_error>",
                                toolDenialKind="permission-rule")).to_json()
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("denied", f"Claude Code denied this call (toolDenialKind permission-rule): Error: {REASON}")]


def test_words_that_already_say_so_are_kept(tmp_path):
    said = "Permission to use Bash with command git push --force origin main has been denied."
    doc = analyze_path(_session(tmp_path, said, toolDenialKind="permission-rule")).to_json()
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("denied", said)]
    rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    doc = analyze_path(_session(tmp_path, rejected, toolDenialKind="user-rejected")).to_json()
    assert [e["kind"] for e in doc["errors"]] == ["rejected"]


def test_without_a_refusal_the_reason_is_the_commands_error(tmp_path):
    for extra in ({}, {"toolDenialKind": "interrupted"}, {"toolDenialKind": "cancelled"}, {"toolDenialKind": 3}):
        doc = analyze_path(_session(tmp_path, REASON, **extra)).to_json()
        assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("tool_error", REASON)], extra
