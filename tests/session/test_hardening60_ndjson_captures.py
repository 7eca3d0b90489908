"""`claude -p --output-format stream-json > run.ndjson` and `codex exec --json > exec.ndjson`: NDJSON
is JSON Lines' other name (stream-json's own docs call it newline-delimited JSON). Named so, a
capture was read when given alone but a folder scan passed it over ("no session files"). A scan
reads them now, as .jsonl files, and still skips an .ndjson of other data."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "7b1d3f9a-2c4e-4f70-9a1b-5e6d7c8f9a01"
CLAUDE = [
    {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
     "model": "claude-sonnet-4-5", "permissionMode": "bypassPermissions", "apiKeySource": "none", "uuid": "i0"},
    {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi -L"}}]},
     "parent_tool_use_id": None, "session_id": SID, "uuid": "a1"},
    {"type": "user", "message": {"role": "user", "content": [
        {"tool_use_id": "toolu_1", "type": "tool_result", "content": "GPU 0: NVIDIA H100 80GB HBM3", "is_error": False}]},
     "parent_tool_use_id": None, "session_id": SID, "uuid": "u1",
     "tool_use_result": {"stdout": "GPU 0: NVIDIA H100 80GB HBM3", "stderr": "", "interrupted": False}},
    {"type": "result", "subtype": "error_max_turns", "is_error": True, "duration_ms": 4000, "num_turns": 2,
     "session_id": SID, "uuid": "r0"},
]
CODEX = [
    {"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}, {"type": "turn.started"},
    {"type": "item.completed", "item": {"id": "item_0", "type": "command_execution", "command": "bash -lc 'ssh gpu02 true'",
                                        "aggregated_output": "ssh: connect to host gpu02 port 22: Connection refused\n",
                                        "exit_code": 255, "status": "failed"}},
    {"type": "turn.completed", "usage": {"input_tokens": 9, "cached_input_tokens": 0, "output_tokens": 4}},
]


def _write(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_folder_scan_reads_ndjson_captures(tmp_path: Path) -> None:
    _write(tmp_path / "claude-run.ndjson", CLAUDE)
    _write(tmp_path / "codex-run.ndjson", CODEX)
    _write(tmp_path / "requests.ndjson", [{"ts": 1.5, "latency_ms": 41.2, "tokens": 128}] * 3)  # not a session
    out = analyze_path(tmp_path).to_json()
    assert sorted((s["id"], s["format"]) for s in out["sessions"]) == [
        ("claude-run", "claude-code"), ("codex-run", "codex")]
    assert sorted(c["host"] for c in out["commands"]) == ["gpu01", "gpu02"]
    assert sorted(e["kind"] for e in out["errors"]) == ["agent_error", "connection"]
