"""A log that a Claude Code hook writes of the events the CLI sends it is no session: named on
the command line it is refused with what it is and where the session is, not read as a
session of that many lines of unknown type (a postmortem of nothing, exit 0)."""

from __future__ import annotations

import json

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

_TRANSCRIPT = "/home/me/.claude/projects/-srv-app/4f1d2c3b-0000-4000-8000-00000000a11c.jsonl"


def _write(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_typed_hook_event_log_is_refused_with_the_transcript_it_names(tmp_path):
    """constellos/claude-code-plugins ``shared/hooks/utils/debug.ts``: each hook appends
    ``{timestamp, event, type: input|output|error, data}`` to ``.claude/logs/hook-events.json``;
    ``data`` of an input is the hook payload, which names the session's transcript."""
    log = _write(tmp_path / ".claude" / "logs" / "hook-events.json", [
        {"timestamp": "2026-01-12T09:14:02.118Z", "event": "PreToolUse", "type": "input",
         "data": {"session_id": "4f1d", "transcript_path": _TRANSCRIPT, "cwd": "/srv/app",
                  "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "mkdir -p src"}}},
        {"timestamp": "2026-01-12T09:14:02.131Z", "event": "PreToolUse", "type": "output",
         "data": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}},
        {"timestamp": "2026-01-12T09:14:05.402Z", "event": "PostToolUse", "type": "error",
         "data": {"name": "Error", "message": "ENOENT", "stack": "Error: ENOENT"}},
        {"timestamp": "2026-01-12T09:14:06.000Z", "event": "PostToolUse", "type": "input",
         "data": {"session_id": "4f1d", "hook_event_name": "PostToolUse"}},
    ])
    with pytest.raises(UsageError) as caught:
        discover(log)
    assert caught.value.message == (f"{log}: not a session transcript (none of its first 4 record(s) is a line of a "
                                    "transcript; their types: input (2), output (1), error (1))")
    assert f"hook events, not the session: analyze the transcript its events name ({_TRANSCRIPT})" \
        in caught.value.hint


def test_a_hook_log_of_flattened_events_names_the_session_too(tmp_path):
    """oneryalcin/fasthooks ``src/fasthooks/logging.py`` writes ``{ts, session_id, event, cwd,
    permission_mode, tool_name, tool_input, ...}``, no ``type``: refused before, now it also
    says what it is; with no transcript_path among the records, no path is made up."""
    log = _write(tmp_path / "hooks-s1.jsonl", [
        {"ts": "2025-11-20T10:00:02Z", "session_id": "s1", "event": "PreToolUse", "cwd": "/w",
         "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "pytest -q"},
         "bash_command": "pytest -q"},
        {"ts": "2025-11-20T10:00:10Z", "session_id": "s1", "event": "Stop", "cwd": "/w", "stop_hook_active": False},
    ])
    with pytest.raises(UsageError, match="none of the fields of Claude Code") as caught:
        discover(log)
    assert caught.value.hint == ("this is a log of Claude Code's hook events, not the session: analyze the "
                                 "transcript its events name, a file of ~/.claude/projects/<project>/")


def test_a_program_log_of_its_own_typed_records_is_no_session(tmp_path):
    """Typed records of no transcript's kind, not about hooks: refused with the generic hint."""
    log = _write(tmp_path / "jobs.jsonl", [
        {"ts": 1767000000, "type": "job.queued", "id": 1}, {"ts": 1767000009, "type": "job.done", "id": 1},
        {"ts": 1767000010, "type": "job.queued", "id": 2}])
    with pytest.raises(UsageError) as caught:
        discover(log)
    assert "their types: job.queued (2), job.done (1)" in str(caught.value)
    assert "--input-format" in caught.value.hint


def test_claude_code_lines_of_new_or_bookkeeping_types_are_still_read(tmp_path):
    """What stays a session: a line in Claude Code's envelope of a type the reader does not know
    yet (its unknown type counted), and ``claude -p --output-format json``'s one result record."""
    future = _write(tmp_path / "future.jsonl", [
        {"type": "brand-new-record", "sessionId": "a11c", "timestamp": "2026-01-12T09:00:00Z"}])
    doc = analyze_path(future).to_json()
    assert (doc["format"], doc["stats"]["unknown_types"]) == ("claude-code", 1)
    result = _write(tmp_path / "run.json", [
        {"type": "result", "subtype": "success", "is_error": False, "result": "done", "session_id": "a11c",
         "num_turns": 2}])
    assert [s.format for s in discover(result)] == ["claude-code"]
