"""A call a ``PreToolUse`` hook turned away never ran; Codex answers it ``Command blocked by PreToolUse
hook: {reason}. Command: {command}`` (shell, apply_patch) or ``Tool call blocked by PreToolUse hook:
{reason}. Tool: {tool}`` (any other tool), openai/codex ``codex-rs/core/src/hook_runtime.rs``
``run_pre_tool_use_hooks``. It read as a command that ran fine with no exit code (one audit tool
counted 323 such outputs shown as completed commands). Now it is a call that was not run, refused by
the hook (``hook_blocked``, as for Claude Code): no loop of failing runs when the model tries again."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

KILL = "ssh gpu01 pkill -f sglang.launch_server"
REASON = "[kill-guard] Process signaling by pattern is denied"


def _rollout(path: Path, calls: list[tuple[str, dict, str]]) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "019b0000-0000-7000-8000-000000000001", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.144.0"}}]
    items = []
    for n, (name, args, output) in enumerate(calls):
        items += [{"type": "function_call", "name": name, "call_id": f"c{n}", "arguments": json.dumps(args)},
                  {"type": "function_call_output", "call_id": f"c{n}", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_command_a_hook_blocked_is_not_run_and_starts_no_loop(tmp_path: Path) -> None:
    blocked = f"Command blocked by PreToolUse hook: {REASON}. Command: {KILL}"
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", [("exec_command", {"cmd": KILL}, blocked)] * 3))
    assert [(c.command, c.host, c.is_error, c.exit_code) for c in a.commands] == [(KILL, "gpu01", True, None)] * 3
    assert [e.kind for e in a.errors] == ["hook_blocked"] * 3  # was no error: three runs that went fine
    assert a.errors[0].message == blocked
    assert a.loops == []


def test_another_tool_a_hook_blocked_is_not_run(tmp_path: Path) -> None:
    blocked = f"Tool call blocked by PreToolUse hook: {REASON}. Tool: mcp__memory__add_note"
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", [("mcp__memory__add_note", {"note": "x"}, blocked)]))
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 1)
    assert [(e.kind, e.message) for e in a.errors] == [("hook_blocked", blocked)]


def test_output_that_quotes_the_words_ran(tmp_path: Path) -> None:
    quoted = "Exit code: 0\nWall time: 0 seconds\nOutput:\nCommand blocked by PreToolUse hook: see hooks.json\n"
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", [("shell_command", {"command": "cat notes"}, quoted)]))
    assert [(c.is_error, c.exit_code) for c in a.commands] == [(False, 0)]
    assert a.errors == []
