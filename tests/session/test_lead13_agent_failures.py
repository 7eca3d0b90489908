"""A turn Codex itself could not finish is an error of the session.

Shapes: ``codex exec --json`` prints ``{"type":"error","message":...}`` and then
``{"type":"turn.failed","error":{"message":...}}`` with the same message (openai/codex
codex-rs/exec/src/exec_events.rs, ThreadErrorEvent / TurnFailedEvent); a rollout saves the
``error`` event as ``event_msg``. The messages are ones Codex users quote in openai/codex issues
(a context-window overflow, a 401 from a missing API key). Before, these were system lines: the
session said 0 errors although its last turn died. A ``stream_error`` (a reconnect the turn
survives) is no error."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

OVERFLOW = ("stream disconnected before completion: Your input exceeds the context window of this model. "
            "Please adjust your input and try again.")
UNAUTHORIZED = "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header"


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_exec_json_error_then_turn_failed_is_one_error_each_turn(tmp_path):
    path = write(tmp_path / "exec.jsonl", [
        {"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "command_execution",
                                            "command": "bash -lc 'ssh gpu01 nvidia-smi'",
                                            "aggregated_output": "GPU 0: H200\n", "exit_code": 0,
                                            "status": "completed"}},
        {"type": "error", "message": OVERFLOW},
        {"type": "turn.failed", "error": {"message": OVERFLOW}},
        {"type": "turn.started"},
        {"type": "turn.failed", "error": {"message": UNAUTHORIZED}},
    ])
    analysis = analyze_path(path)
    assert analysis.stats["errors"] == 2
    assert [(e.kind, e.message, e.source_line) for e in analysis.errors] == [
        ("agent_error", OVERFLOW, 4), ("agent_error", UNAUTHORIZED, 7)]
    assert all(e.command_seq is None for e in analysis.errors)
    assert analysis.pivots == []  # no command failed: nothing to change approach from
    assert analysis.agents[0]["errors"] == 2


def test_rollout_error_event_counts_and_stream_error_does_not(tmp_path):
    meta = {"id": "019a3c1e-5d2b-7c40-9a61-2f0e8b7d4c11", "timestamp": "2026-10-05T16:00:00.000Z",
            "cwd": "/home/ubuntu/eagle3", "originator": "codex_cli_rs", "cli_version": "0.157.0"}
    path = write(tmp_path / "rollout-2026-10-05T16-00-00-019a3c1e-5d2b-7c40-9a61-2f0e8b7d4c11.jsonl", [
        {"timestamp": "2026-10-05T16:00:00.000Z", "type": "session_meta", "payload": meta},
        {"timestamp": "2026-10-05T16:00:01.000Z", "type": "event_msg",
         "payload": {"type": "stream_error", "message": "Reconnecting... 1/5"}},
        {"timestamp": "2026-10-05T16:00:09.000Z", "type": "event_msg",
         "payload": {"type": "error", "message": OVERFLOW}},
    ])
    analysis = analyze_path(path)
    assert analysis.stats["errors"] == 1
    (error,) = analysis.errors
    assert (error.kind, error.message, error.timestamp) == ("agent_error", OVERFLOW, "2026-10-05T16:00:09.000Z")
