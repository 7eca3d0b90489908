"""Hermes Agent's terminal tool answers a command it never ran, because the person declined it at
the approval prompt or its guard refused it, with ``{"output": "", "exit_code": -1, "error":
"BLOCKED: User denied this command. ...", "status": "blocked"}`` (NousResearch/hermes-agent
``tools/terminal_tool.py``: the ``approval["approved"]`` check before the command runs, and the
workdir check; the refusal texts from ``tools/approval.py``). Its session files
(``~/.hermes/sessions/session_<id>.json``) hold that JSON as the tool message's content.

Before: each such command read as a failed command (exit code -1, an ``exit_code`` error whose
message was the refusal), as if the server launch had crashed. Now: the command never ran, as
Claude Code's and Codex's refusals read: no exit status, its error ``rejected`` when the person
declined it, ``denied`` when a guard did (failures.NOT_RUN)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

USER_DENIED = ("BLOCKED: User denied this command. The user has NOT consented to this action. Do NOT retry "
               "this command, do NOT rephrase it, and do NOT attempt the same outcome via a different command. "
               "Stop the current workflow and wait for the user to respond before taking any further "
               "destructive or irreversible action.")
SMART_DENIED = "BLOCKED by smart approval: kill all processes. The command was assessed as genuinely dangerous. Do NOT retry."
LAUNCH = "pkill -f sglang; python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"


def _session(tmp_path: Path, results: list[dict]) -> Path:
    messages = [{"role": "system", "content": "You are Hermes Agent."},
                {"role": "user", "content": "restart the sglang server with EAGLE-3"}]
    for i, result in enumerate(results):
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": "terminal", "arguments": json.dumps({"command": LAUNCH})}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps(result, ensure_ascii=False)})
    messages.append({"role": "assistant", "content": "Stopping here."})
    path = tmp_path / "session_20261102_080000_a1b2c3.json"
    path.write_text(json.dumps({"session_id": "20261102_080000_a1b2c3", "model": "hermes-4", "platform": "cli",
                                "messages": messages}, ensure_ascii=False))
    return path


def test_a_command_the_person_declined_never_ran(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [{"output": "", "exit_code": -1, "error": USER_DENIED, "status": "blocked"}]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, None, True)]
    assert [(e.kind, e.message) for e in a.errors] == [("rejected", USER_DENIED[:300])]  # an error message is cut at 300


def test_a_command_the_guard_refused_never_ran(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [{"output": "", "exit_code": -1, "error": SMART_DENIED, "status": "blocked"}]))
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(None, True)]
    assert [(e.kind, e.message) for e in a.errors] == [("denied", SMART_DENIED)]


def test_a_command_that_ran_and_failed_still_failed(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        {"output": "Traceback (most recent call last):\nRuntimeError: CUDA out of memory", "exit_code": 1,
         "error": None}]))
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(1, True)]
    assert [e.kind for e in a.errors] != ["rejected"] and a.errors


def test_a_command_left_waiting_for_approval_never_ran(tmp_path: Path) -> None:
    # Hermes' gateway in ask mode: the command waits for the person's /approve, nothing ran yet
    pending = {"output": "", "exit_code": -1, "error": "", "status": "pending_approval", "approval_pending": True,
               "command": LAUNCH, "description": "kill all processes matching a pattern", "pattern_key": "pkill",
               "smart_denied": False, "allow_permanent": True}
    a = analyze_path(_session(tmp_path, [pending]))
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(None, True)]  # was exit -1, "exit code -1"
    assert [(e.kind, e.message) for e in a.errors] == [("denied", "awaiting approval: kill all processes matching a pattern")]
