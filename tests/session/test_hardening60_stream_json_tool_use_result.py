"""`claude -p --verbose --output-format stream-json` writes the CLI's own copy of a tool's result
as `tool_use_result` (the Agent SDK's SDKUserMessage field), not the session file's
`toolUseResult`. Only the latter was read, so in a stream-json capture an SSH MCP tool's
structured `{"stdout", "stderr", "exitCode"}` result (test_hardening49_claude_mcp_process_results.py
for the session file) stayed a JSON blob: the command that exited 1 was a success with no exit
code, and its traceback's last line was hidden. Both names are read now."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "5c1e0e52-7d4b-4b8e-9a51-0c2f3e9b1a77"


def _exchange(call_id: str, command: str, process: dict) -> list[dict]:
    blocks = [{"type": "text", "text": json.dumps(process, indent=2)}]
    return [
        {"type": "assistant", "message": {"id": f"msg_{call_id}", "type": "message", "role": "assistant",
                                          "model": "claude-sonnet-4-5", "content": [
            {"type": "tool_use", "id": call_id, "name": "mcp__ssh__execute_command",
             "input": {"host": "gpu7", "command": command}}]},
         "parent_tool_use_id": None, "session_id": SID, "uuid": f"a-{call_id}"},
        {"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": call_id, "type": "tool_result", "content": blocks}]},
         "parent_tool_use_id": None, "session_id": SID, "uuid": f"u-{call_id}", "tool_use_result": blocks},
    ]


def test_a_stream_json_mcp_process_result_gives_its_exit_code(tmp_path: Path) -> None:
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "mcp_servers": [{"name": "ssh", "status": "connected"}], "model": "claude-sonnet-4-5",
         "permissionMode": "bypassPermissions", "apiKeySource": "none", "uuid": "i0"},
        *_exchange("toolu_01", "python -c 'import sglang'", {
            "stdout": "", "exitCode": 1, "stderr": "Traceback (most recent call last):\n"
            "  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'sglang'\n"}),
        *_exchange("toolu_02", "nvidia-smi -L", {"stdout": "GPU 0: NVIDIA H100 80GB HBM3\n", "stderr": "",
                                                 "exitCode": 0}),
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 9000, "num_turns": 3,
         "result": "sglang is missing on gpu7.", "session_id": SID, "uuid": "r0"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    a = analyze_path(path)
    assert a.format == "claude-code"
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("python -c 'import sglang'", "gpu7", 1, True),
        ("nvidia-smi -L", "gpu7", 0, False),
    ]
    assert [(e.kind, e.message) for e in a.errors] == [("traceback", "No module named 'sglang'")]
