"""An SSH or shell MCP server that returns the process it ran as its result, ``{"stdout",
"stderr", "exitCode"}`` (the "structured" results several such servers document; a FastMCP
tool's dict comes back as indented JSON text). Claude Code marks an MCP call failed only when
the server says ``isError``, and writes the call's content blocks as ``toolUseResult``
(``[{"type": "text", ...}]``, as CLI 2.0.14 sessions show). The command that exited 1 was read as
exit 0 and a success; its exit code is the server's now, and its output the streams."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "dddd0000-0000-4000-8000-0000000000c3"


def _line(n: int, kind: str, **fields) -> str:
    return json.dumps({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
                       "timestamp": f"2026-03-01T08:00:{n:02d}.000Z", "cwd": "/root", "isSidechain": False,
                       "userType": "external", "version": "2.1.100", **fields})


def _exchange(n: int, call_id: str, command: str, process: dict, indent: int | None = None) -> list[str]:
    blocks = [{"type": "text", "text": json.dumps(process, indent=indent)}]
    return [
        _line(n, "assistant", message={"id": f"m{n}", "role": "assistant", "content": [
            {"type": "tool_use", "id": call_id, "name": "mcp__ssh__execute_command",
             "input": {"host": "gpu7", "command": command}}]}),
        _line(n + 1, "user", toolUseResult=blocks, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call_id, "content": blocks}]}),
    ]


def test_the_exit_code_an_mcp_shell_tool_returns_is_the_commands(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join([
        _line(0, "user", message={"role": "user", "content": "Is sglang installed on gpu7?"}),
        *_exchange(1, "t1", "python -c 'import sglang'", {
            "stdout": "", "exitCode": 1, "stderr": "Traceback (most recent call last):\n"
            "  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'sglang'\n"}, indent=2),
        *_exchange(3, "t2", "nvidia-smi -L", {"stdout": "GPU 0: NVIDIA H100 80GB HBM3\n", "stderr": "", "exitCode": 0}),
        # a tool's JSON of another shape stays as it came, read as before
        *_exchange(5, "t3", "hostname", {"stdout": "gpu7", "host": "gpu7"}),
    ]) + "\n")
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("python -c 'import sglang'", "gpu7", 1, True),
        ("nvidia-smi -L", "gpu7", 0, False),
        ("hostname", "gpu7", None, False),  # no status recorded (test_hardening56_mcp_ssh_failure.py)
    ]
    assert [(e.kind, e.message) for e in a.errors] == [("traceback", "No module named 'sglang'")]
