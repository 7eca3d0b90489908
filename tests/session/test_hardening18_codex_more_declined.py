"""A command the person declined at Codex's approval prompt never ran: it is not a failed command.

When the person answers "no" (``ReviewDecision::Denied``) or "no, and tell Codex what to do"
(``Abort``), Codex fails the call with ``ToolError::Rejected("rejected by user")`` and words it per
tool: the model gets ``exec command rejected by user`` (``patch rejected by user`` for an edit),
and the UI's ``exec_command_end`` has ``status: declined``, ``exit_code: -1`` and the same text as
its output (openai/codex ``codex-rs/core/src/tools/orchestrator.rs`` ``reject_if_not_approved``,
``codex-rs/core/src/tools/events.rs`` ``ToolEmitter::finish``; the ``exec-declined`` end of
``codex-rs/app-server-protocol`` thread-history test ``reconstructs_declined_exec_and_patch_items``
is copied below field for field). Rollouts of 2025 have only the model's copy
(``codex.rs`` ``handle_container_exec_with_params``: the same text). ``codex exec --json`` reports
the item as ``command_execution`` with ``status: "declined"`` (``codex-rs/exec/src/exec_events.rs``
``CommandExecutionStatus::Declined``).

Before, each read as a command that failed with exit code -1 (or with a ``tool_error``): three
declined tries made a loop of "the same failing command" and the next command a pivot after an
error. Now the error is ``rejected`` (the person) or ``denied`` (the auto-reviewer, a hook, a
policy), a kind of failures.NOT_RUN, as for Claude Code (test_hardening13_blocked_calls.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

THREAD = "019a3c1e-5d2b-7c40-9a61-2f0e8b7d4c11"
KILL = "ssh gpu01 'pkill -f sglang.launch_server'"
LOG = "ssh gpu01 'tail -n 50 /var/log/sglang.log'"
USER_DECLINED = "exec command rejected by user"
# guardian_rejection_message (openai/codex codex-rs/core/src/guardian/): the auto-reviewer's refusal
GUARDIAN = ("This action was rejected due to unacceptable risk.\nReason: Would kill a server other users share.\n"
            "The agent must not attempt to achieve the same outcome via workaround, indirect execution, or policy "
            "circumvention. Proceed only with a materially safer alternative, or if the user explicitly approves "
            "the action after being informed of the risk. Otherwise, stop and request user input.")


def _line(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-10-05T16:{n:02d}:00.000Z", "type": kind, "payload": payload}


def _head() -> list[dict]:
    return [
        _line(0, "session_meta", {"id": THREAD, "timestamp": "2026-10-05T16:00:00.000Z", "cwd": "/home/ubuntu/eagle3",
                                  "originator": "codex_cli_rs", "cli_version": "0.158.0", "source": "cli"}),
        _line(0, "turn_context", {"cwd": "/home/ubuntu/eagle3", "approval_policy": "untrusted", "model": "gpt-5.3-codex"}),
        _line(0, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Restart the EAGLE-3 server on gpu01"}]}),
    ]


def _exec_end(call_id: str, command: str, output: str, code: int, status: str) -> dict:
    # ExecCommandEndEvent as openai/codex's thread-history test builds the declined one
    return {"type": "exec_command_end", "call_id": call_id, "process_id": None, "turn_id": "turn-1",
            "command": ["/bin/bash", "-lc", command], "cwd": "/home/ubuntu/eagle3",
            "parsed_cmd": [{"type": "unknown", "cmd": command}], "source": "agent", "interaction_input": None,
            "stdout": output if code == 0 else "", "stderr": "" if code == 0 else output, "aggregated_output": output,
            "exit_code": code, "duration": {"secs": 0, "nanos": 0}, "formatted_output": "", "status": status}


def _rollout(tmp_path: Path, refusal: str = USER_DECLINED, with_end: bool = True) -> Path:
    lines = _head()
    n = 1
    for i in range(3):  # the agent asks three times; the person says no each time
        call_id = f"call_kill{i}"
        lines.append(_line(n, "response_item", {"type": "function_call", "name": "exec_command",
                                                "arguments": json.dumps({"cmd": KILL}), "call_id": call_id}))
        if with_end:
            lines.append(_line(n, "event_msg", _exec_end(call_id, KILL, refusal, -1, "declined")))
        lines.append(_line(n, "response_item", {"type": "function_call_output", "call_id": call_id,
                                                "output": refusal}))
        n += 1
    out = "[2026-10-05 16:00:01] Decode batch, #running-req: 4, gen throughput (token/s): 812.4"
    lines += [_line(n, "response_item", {"type": "function_call", "name": "exec_command",
                                         "arguments": json.dumps({"cmd": LOG}), "call_id": "call_log"}),
              _line(n, "event_msg", _exec_end("call_log", LOG, out, 0, "completed")),
              _line(n, "response_item", {"type": "function_call_output", "call_id": "call_log", "output": out})]
    path = tmp_path / f"rollout-2026-10-05T16-00-00-{THREAD}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("with_end", [True, False], ids=["exec_command_end", "model-copy-only"])
def test_a_command_the_person_declined_is_not_run_and_starts_no_loop_or_pivot(tmp_path: Path, with_end: bool) -> None:
    a = analyze_path(_rollout(tmp_path, with_end=with_end))
    kills = [c for c in a.commands if c.command == KILL]
    assert [(c.is_error, c.exit_code) for c in kills] == [(True, None)] * 3  # was exit code -1 (with the end)
    assert [e.kind for e in a.errors] == ["rejected"] * 3  # was exit_code / tool_error
    assert a.errors[0].message == USER_DECLINED
    assert a.loops == []  # was: "the same failing command ran 3 times"
    assert a.pivots == []  # was: a pivot to reading the log after the "failure"
    text = render_postmortem(a, "md")
    assert "| not run |" in text and "The same failing command ran" not in text


@pytest.mark.parametrize("with_end", [True, False], ids=["exec_command_end", "model-copy-only"])
def test_the_auto_reviewers_refusal_is_denied_not_rejected(tmp_path: Path, with_end: bool) -> None:
    a = analyze_path(_rollout(tmp_path, refusal=GUARDIAN, with_end=with_end))
    assert [e.kind for e in a.errors] == ["denied"] * 3
    assert a.errors[0].message == "This action was rejected due to unacceptable risk."
    assert a.loops == [] and a.pivots == []


def test_a_command_that_ran_and_failed_with_minus_one_is_still_a_failure(tmp_path: Path) -> None:
    # The network sandbox stopped it after it started: exit -1, status failed (openai/codex unified-exec
    # test "call-unified-denied", output "PRE_DENIAL_MARKER\nNetwork access denied"), not a refusal.
    path = _rollout(tmp_path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        p = line["payload"]
        if p.get("type") == "exec_command_end" and p["status"] == "declined":
            p.update(status="failed", stderr="PRE_DENIAL_MARKER\nNetwork access denied",
                     aggregated_output="PRE_DENIAL_MARKER\nNetwork access denied")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    a = analyze_path(path)
    assert a.errors and not {e.kind for e in a.errors} & {"rejected", "denied", "hook_blocked"}
    assert len(a.loops) == 1


def test_a_declined_item_completed_is_not_run(tmp_path: Path) -> None:
    # item_completed's CommandExecution, as 0.15x rollouts keep it (codex-rs/protocol/src/items.rs;
    # status spelled as the protocol crate serializes it), ends the call before the model's copy.
    lines = _head()
    for i in range(2):
        call_id = f"call_kill{i}"
        lines += [_line(i + 1, "response_item", {"type": "function_call", "name": "exec_command",
                                                 "arguments": json.dumps({"cmd": KILL}), "call_id": call_id}),
                  _line(i + 1, "event_msg", {"type": "item_completed", "thread_id": THREAD, "turn_id": "turn-1",
                                             "item": {"type": "CommandExecution", "id": call_id,
                                                      "command": ["/bin/bash", "-lc", KILL],
                                                      "cwd": "/home/ubuntu/eagle3", "process_id": None,
                                                      "status": "Declined", "command_actions": [],
                                                      "aggregated_output": USER_DECLINED, "exit_code": -1,
                                                      "duration_ms": 0}}),
                  _line(i + 1, "response_item", {"type": "function_call_output", "call_id": call_id,
                                                 "output": USER_DECLINED})]
    path = tmp_path / "rollout-item-completed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    a = analyze_path(path)
    assert [(c.is_error, c.exit_code) for c in a.commands] == [(True, None)] * 2
    assert [e.kind for e in a.errors] == ["rejected"] * 2
    assert a.loops == []


def test_a_declined_patch_is_not_run(tmp_path: Path) -> None:
    # patch_apply_end of a refused edit: success false, status declined, "patch rejected by user"
    # (the patch-declined end of the same thread-history test)
    lines = _head() + [
        _line(1, "response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": "call_patch",
                                   "input": "*** Begin Patch\n*** Add File: README.md\n+hello\n*** End Patch\n"}),
        _line(1, "event_msg", {"type": "patch_apply_end", "call_id": "call_patch", "turn_id": "turn-1", "stdout": "",
                               "stderr": "patch rejected by user", "success": False,
                               "changes": {"README.md": {"add": {"content": "hello\n"}}}, "status": "declined"}),
        _line(1, "response_item", {"type": "custom_tool_call_output", "call_id": "call_patch",
                                   "output": "patch rejected by user"})]
    path = tmp_path / "rollout-patch.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    a = analyze_path(path)
    assert [e.kind for e in a.errors] == ["rejected"]


def test_codex_exec_json_declined_command_is_not_run(tmp_path: Path) -> None:
    # codex exec --json (exec_events.rs): the command item starts, then completes as declined
    lines = [{"type": "thread.started", "thread_id": THREAD}, {"type": "turn.started"}]
    for i in range(3):
        item = {"id": f"item_{i}", "type": "command_execution", "command": f"/bin/bash -lc \"{KILL}\"",
                "aggregated_output": "", "exit_code": None, "status": "in_progress"}
        lines += [{"type": "item.started", "item": item},
                  {"type": "item.completed", "item": {**item, "aggregated_output": USER_DECLINED, "exit_code": -1,
                                                      "status": "declined"}}]
    lines.append({"type": "turn.completed", "usage": {"input_tokens": 24763, "cached_input_tokens": 24448,
                                                      "output_tokens": 122}})
    path = tmp_path / "codex-exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    a = analyze_path(path)
    assert [(c.command, c.is_error, c.exit_code) for c in a.commands] == [(KILL, True, None)] * 3
    assert [e.kind for e in a.errors] == ["rejected"] * 3
    assert a.loops == []
