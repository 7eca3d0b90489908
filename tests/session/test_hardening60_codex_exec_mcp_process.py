"""`codex exec --json` gives an MCP tool's call as an `mcp_tool_call` item whose `result` is
`{content, structured_content}` (openai/codex codex-rs/exec/src/exec_events.rs McpToolCallItemResult).
An SSH MCP server that answers with the process it ran, `{"stdout", "stderr", "exitCode"}`, has the
call "completed" whatever the command's exit, as the server did not say isError: the command that
exited 1 was read as a success with no exit code, its traceback inside escaped JSON. The
process's exit code and streams are read now, from structured_content or the JSON text."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

FAILED = {"stdout": "", "exitCode": 1, "stderr": "Traceback (most recent call last):\n"
          "  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'sglang'\n"}
PASSED = {"stdout": "GPU 0: NVIDIA H100 80GB HBM3\n", "stderr": "", "exitCode": 0}


def _call(item_id: str, command: str, result: dict) -> list[dict]:
    item = {"id": item_id, "type": "mcp_tool_call", "server": "ssh", "tool": "execute_command",
            "arguments": {"host": "gpu7", "command": command}, "result": None, "error": None, "status": "in_progress"}
    return [{"type": "item.started", "item": item},
            {"type": "item.completed", "item": {**item, "result": result, "status": "completed"}}]


def test_an_mcp_process_result_gives_the_commands_exit(tmp_path: Path) -> None:
    lines = [{"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}, {"type": "turn.started"},
             # as JSON text only (a FastMCP tool's dict, indented)
             *_call("item_0", "python -c 'import sglang'",
                    {"content": [{"type": "text", "text": json.dumps(FAILED, indent=2)}], "structured_content": None}),
             # as structured_content beside its text
             *_call("item_1", "nvidia-smi -L", {"content": [{"type": "text", "text": json.dumps(PASSED)}],
                                                "structured_content": PASSED}),
             *_call("item_2", "hostname", {"content": [{"type": "text", "text": "gpu7"}], "structured_content": None}),
             {"type": "turn.completed", "usage": {"input_tokens": 9, "cached_input_tokens": 0, "output_tokens": 4}}]
    path = tmp_path / "exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("python -c 'import sglang'", "gpu7", 1, True),
        ("nvidia-smi -L", "gpu7", 0, False),
        ("hostname", "gpu7", None, False),
    ]
    assert [(e.kind, e.message) for e in a.errors] == [("traceback", "No module named 'sglang'")]
