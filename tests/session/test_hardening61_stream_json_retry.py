"""`claude -p --verbose --output-format stream-json` says each retried API request in a
``{"type": "system", "subtype": "api_retry", "attempt", "max_retries", "retry_delay_ms",
"error_status", "error"}`` line (the Agent SDK's SDKAPIRetryMessage, @anthropic-ai/claude-agent-sdk
``sdk.d.ts``: ``error_status`` null for a connection error with no HTTP response). Each came
through as a system note of no text, while the session file's ``api_error`` lines say status,
error and attempt; now both say them the same way, and a retry is still no error of the run."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

SID = "5a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def test_stream_json_api_retry_lines_say_what_failed(tmp_path: Path) -> None:
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "model": "claude-sonnet-4-5", "uuid": "i0"},
        {"type": "system", "subtype": "api_retry", "attempt": 1, "max_retries": 10, "retry_delay_ms": 523,
         "error_status": 529, "error": "server_error", "uuid": "r1", "session_id": SID},
        {"type": "system", "subtype": "api_retry", "attempt": 2, "max_retries": 10, "retry_delay_ms": 1130,
         "error_status": None, "error": "unknown", "uuid": "r2", "session_id": SID},
        {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "text", "text": "gpu01 is reachable."}]}, "parent_tool_use_id": None, "session_id": SID,
         "uuid": "a1"},
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 4000, "num_turns": 1,
         "result": "gpu01 is reachable.", "session_id": SID, "uuid": "z0"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    cursor = Cursor(session=SID, agent="main", file=str(path))
    events = list(claude_code.read(path, cursor, ReadStats()))
    assert [(e.raw_type, e.text) for e in events if e.raw_type == "api_retry"] == [
        ("api_retry", "API error 529: server_error (retry 1/10)"),
        ("api_retry", "API error: unknown (retry 2/10)"),
    ]
    out = analyze_path(path).to_json()
    assert out["stats"]["unknown_types"] == 0 and out["errors"] == []  # retries, not failures of the run
