"""An MCP server's SSH tool runs the command on the host it is given and returns what it printed,
with no exit status (tenox7/ssh-mcp ``README.md``; ``{host, command}``); the tool call's own
``is_error`` says whether the tool failed, not the command. A command whose program said it failed
in its own name ("cat: /opt/draft/config.jsn: No such file or directory") read as a success in a
Claude Code session (given exit 0, as a Bash result) and in a Codex rollout, while the same output
of a chat log's tool, which records no status either, was a failure."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening55_mcp_ssh_login import SESSION, _claude_session

_MISSING = "cat: /opt/draft/config.jsn: No such file or directory"
_SMI = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)"
CALLS = [
    ("mcp__ssh__ssh_execute_command", {"host": "gpu07", "username": "root", "command": "cat /opt/draft/config.jsn"},
     _MISSING),
    ("mcp__ssh__ssh_execute_command", {"host": "gpu07", "username": "root", "command": "nvidia-smi -L"}, _SMI),
]
EXPECTED = [("cat /opt/draft/config.jsn", "gpu07", True), ("nvidia-smi -L", "gpu07", False)]


def _codex_rollout(path: Path) -> Path:
    rows = [{"type": "session_meta", "payload": {"id": "019c3a10-0000-7000-8000-00000000d056", "cwd": "/work/eagle",
                                                 "originator": "codex_cli_rs", "cli_version": "0.58.0"}},
            {"type": "turn_context", "payload": {"turn_id": "t1", "cwd": "/work/eagle", "model": "gpt-5.1-codex"}},
            {"type": "event_msg", "payload": {"type": "user_message", "message": "EAGLE-3 on gpu07 is slow."}}]
    for i, (name, args, output) in enumerate(CALLS):
        rows.append({"type": "response_item", "payload": {"type": "function_call", "name": name,
                                                          "arguments": json.dumps(args), "call_id": f"call_{i}"}})
        rows.append({"type": "response_item", "payload": {"type": "function_call_output", "call_id": f"call_{i}",
                                                          "output": output}})
    for n, row in enumerate(rows):
        row["timestamp"] = f"2026-03-01T09:00:{n:02d}.000Z"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _shape(path: Path) -> tuple:
    a = analyze_path(path)
    return [(c.command, c.host, c.is_error) for c in a.commands], [(e.kind, e.message, e.host) for e in a.errors]


def test_a_claude_code_mcp_ssh_command_that_failed_in_its_own_words(tmp_path):
    assert _shape(_claude_session(tmp_path / f"{SESSION}.jsonl", CALLS)) == (EXPECTED, [("tool_error", _MISSING, "gpu07")])


def test_a_codex_mcp_ssh_command_that_failed_in_its_own_words(tmp_path):
    path = _codex_rollout(tmp_path / "rollout-2026-03-01T09-00-00-019c3a10-0000-7000-8000-00000000d056.jsonl")
    assert _shape(path) == (EXPECTED, [("tool_error", _MISSING, "gpu07")])
