"""`claude -p --verbose --output-format stream-json` writes notes beside the messages:
`tool_progress` while a tool runs, `tool_use_summary` after a batch of calls, `auth_status` (the
Agent SDK's SDKToolProgressMessage, SDKToolUseSummaryMessage, SDKAuthStatusMessage). Each was
counted in `stats.unknown_types`, the count that says a reader met a shape it does not know;
they are known bookkeeping now, and the run reads as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "3e0b6a52-9c1d-4f2e-8a7b-6c5d4e3f2a10"


def test_stream_json_notes_are_no_unknown_lines(tmp_path: Path) -> None:
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "model": "claude-sonnet-4-5", "permissionMode": "bypassPermissions", "apiKeySource": "none", "uuid": "i0"},
        {"type": "auth_status", "isAuthenticating": False, "output": [], "uuid": "s0", "session_id": SID},
        {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi -L"}}]},
         "parent_tool_use_id": None, "session_id": SID, "uuid": "a1"},
        {"type": "tool_progress", "tool_use_id": "toolu_1", "tool_name": "Bash", "parent_tool_use_id": None,
         "elapsed_time_seconds": 3, "uuid": "p1", "session_id": SID},
        {"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_1", "type": "tool_result", "content": "GPU 0: NVIDIA H100 80GB HBM3",
             "is_error": False}]}, "parent_tool_use_id": None, "session_id": SID, "uuid": "u1",
         "tool_use_result": {"stdout": "GPU 0: NVIDIA H100 80GB HBM3", "stderr": "", "interrupted": False}},
        {"type": "tool_use_summary", "summary": "Listed the GPUs on gpu01", "preceding_tool_use_ids": ["toolu_1"],
         "uuid": "t1", "session_id": SID},
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 4000, "num_turns": 2,
         "result": "gpu01 has one H100.", "session_id": SID, "uuid": "r0"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = analyze_path(path).to_json()
    assert out["format"] == "claude-code" and out["stats"]["unknown_types"] == 0
    assert [(c["host"], c["is_error"]) for c in out["commands"]] == [("gpu01", False)] and out["errors"] == []
