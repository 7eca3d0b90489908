"""Hermes Agent's ``terminal`` tool answers a command it did not run with an empty output and the
reason in ``error``: ``{"output": "", "exit_code": -1, "error": "BLOCKED: User denied this
command...", "status": "blocked"}``, ``"Command execution failed: ..."``, ``"Foreground command uses
'&' backgrounding..."`` (NousResearch/hermes-agent ``tools/terminal_tool.py``; its session
messages and trajectories keep the JSON as the ``role: tool`` content). Only ``output`` was read:
the call failed with exit -1 and its error was ``exit code -1``, the reason lost. Now the reason is
the result's text (after any output), and the call's error."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.common import shell_result

BLOCKED = "BLOCKED: User denied this command. The user has NOT consented to this action."
FAILED = "Command execution failed: [Errno 2] No such file or directory: 'bash'"


def _chat(path: Path, results: list[tuple[str, dict]]) -> Path:
    messages: list[dict] = [{"role": "user", "content": "is the EAGLE-3 server up on gpu01?"}]
    for n, (command, result) in enumerate(results):
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"c{n}", "type": "function",
             "function": {"name": "terminal", "arguments": json.dumps({"command": command})}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": json.dumps(result)})
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    return path


def test_the_reason_is_the_text() -> None:
    assert shell_result(json.dumps({"output": "", "exit_code": -1, "error": BLOCKED, "status": "blocked"})) \
        == (BLOCKED, -1)
    assert shell_result(json.dumps({"output": "partial\n", "exit_code": 124, "error": "Command timed out"})) \
        == ("partial\nCommand timed out", 124)
    # no error, an empty one, or one the output already holds: the output as it was
    assert shell_result(json.dumps({"output": "ok\n", "exit_code": 0, "error": None})) == ("ok\n", 0)
    assert shell_result(json.dumps({"output": "ok\n", "exit_code": 0, "error": ""})) == ("ok\n", 0)
    assert shell_result(json.dumps({"output": "boom", "exit_code": 1, "error": "boom"})) == ("boom", 1)


def test_a_blocked_command_says_why(tmp_path: Path) -> None:
    path = _chat(tmp_path / "hermes.json", [
        ("ssh gpu01 'pkill -f sglang'", {"output": "", "exit_code": -1, "error": BLOCKED, "status": "blocked"}),
        ("ssh gpu01 nvidia-smi", {"output": "", "exit_code": -1, "error": FAILED}),
        ("ssh gpu01 uptime", {"output": " 10:00:01 up 3 days\n", "exit_code": 0, "error": None})])
    a = analyze_path(path)
    assert [(c.command, c.exit_code) for c in a.commands] == [
        # the blocked command never ran: no exit status (test_hardening74_hermes_blocked)
        ("ssh gpu01 'pkill -f sglang'", None), ("ssh gpu01 nvidia-smi", -1), ("ssh gpu01 uptime", 0)]
    assert [e.message for e in a.errors] == [BLOCKED, FAILED]
