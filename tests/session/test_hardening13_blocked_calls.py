"""A command Claude Code never ran is not a command that failed.

A PreToolUse hook that blocks a Bash call answers it with ``{"type": "tool_result",
"is_error": true, "content": "PreToolUse:Bash hook error: [hook]: reason"}`` (the text
transcript readers test against, CLI 2.1.x; the attachment shape is in
test_hardening12b_hook_attachments.py). A call the person refuses at the permission prompt is
answered ``"The user doesn't want to proceed with this tool use. The tool use was rejected
..."`` (Claude Code's prompt text, kmcquade/cc-mvp-prompts
``system-prompts/system-prompt-stop-after-rejection.md``). Both were read as failed runs: three
blocked tries made a loop of "the same failing command", and the next command a pivot after
an error, though no command ran and nothing about the server was learnt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SID = "3c1d2e0b-7f80-4a91-b2c3-d4e5f6a7b8c9"
HOOK = "~/.claude/hooks/no-kill-on-shared-gpus.sh"
REASON = "killing processes on gpu01 needs an on-call approval"
KILL = "ssh gpu01 'pkill -f sglang.launch_server'"
REJECTED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
            "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to "
            "tell you how to proceed.")


def _line(n: int, kind: str, **fields) -> dict:
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-02-01T10:{n:02d}:00Z", "cwd": "/work", "isSidechain": False,
            "userType": "external", "version": "2.1.31", **fields}


def _call(n: int, call_id: str, command: str) -> dict:
    return _line(n, "assistant", message={"id": f"msg_{n}", "role": "assistant", "content": [
        {"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}]})


def _result(n: int, call_id: str, text: str, is_error: bool) -> dict:
    return _line(n, "user", message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": call_id, "is_error": is_error, "content": text}]})


def _session(tmp_path: Path, refusal: str) -> Path:
    lines = [_line(0, "user", message={"role": "user", "content": "Restart the EAGLE-3 server on gpu01"})]
    n = 1
    for i in range(3):  # the agent tries the blocked kill three times
        lines += [_call(n, f"toolu_kill{i}", KILL), _result(n + 1, f"toolu_kill{i}", refusal, True)]
        n += 2
    lines += [_call(n, "toolu_log", "ssh gpu01 'tail -n 50 /var/log/sglang.log'"),
              _result(n + 1, "toolu_log", "[2026-02-01 10:00:01] Decode batch, #running-req: 4", False)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_a_hook_blocked_command_is_marked_and_starts_no_loop_or_pivot(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, f"PreToolUse:Bash hook error: [{HOOK}]: {REASON}"))
    kills = [c for c in a.commands if c.command == KILL]
    assert [(c.is_error, c.exit_code) for c in kills] == [(True, None)] * 3
    assert [e.kind for e in a.errors] == ["hook_blocked"] * 3
    assert REASON in a.errors[0].message
    assert a.loops == []  # was: "the same failing command ran 3 times"
    assert a.pivots == []  # was: moved from inspecting processes to reading logs "after tool_error"
    text = render_postmortem(a, "md")
    assert "The same failing command ran" not in text
    assert "hook_blocked" in text


def test_a_call_the_person_refused_is_marked_as_not_run(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, REJECTED))
    assert [e.kind for e in a.errors] == ["rejected"] * 3
    assert a.loops == [] and a.pivots == []


@pytest.mark.parametrize("denial", [
    "Permission for this action was denied by the Claude Code auto mode classifier. Reason: Blocked by classifier.",
    "Permission for this command was denied by a built-in Claude Code safety check, not by the user.",
    "This command requires approval",
    "This Bash command contains multiple operations. The following part requires approval: pkill -f sglang",
])
def test_a_call_the_permission_system_denied_is_marked_as_not_run(tmp_path: Path, denial: str) -> None:
    # The denial texts an independent Claude Code transcript checker's tests list (auto mode's
    # classifier, the built-in safety check, a -p run without the permission).
    a = analyze_path(_session(tmp_path, denial))
    assert [e.kind for e in a.errors] == ["denied"] * 3
    assert a.loops == [] and a.pivots == []


def test_a_hook_that_failed_on_a_command_that_ran_is_still_a_failure(tmp_path: Path) -> None:
    # The command ran and failed; only a PreToolUse block stops it from running.
    a = analyze_path(_session(tmp_path, "Exit code 1\npkill: killing pid 4242 failed: Operation not permitted"))
    assert {e.kind for e in a.errors} == {"exit_code"}
    assert len(a.loops) == 1


def test_the_postmortem_tells_the_blocked_call_from_the_first_real_error(tmp_path: Path) -> None:
    # The blocked kill, then the log read that shows the engine's OOM: detection names the OOM.
    path = _session(tmp_path, f"PreToolUse:Bash hook error: [{HOOK}]: {REASON}")
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    last["message"]["content"][0].update(is_error=True, content=(
        "Exit code 1\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
        "capacity of 79.10 GiB of which 1.02 GiB is free."))
    path.write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")
    text = render_postmortem(analyze_path(path), "md")
    first = next(line for line in text.splitlines() if "First error:" in line)
    assert "OutOfMemoryError" in first and "hook" not in first
    assert "| not run |" in text  # the timeline row of each blocked try


def test_distill_leaves_out_a_step_that_never_ran(tmp_path: Path) -> None:
    # The test script fails, the agent turns to the GPUs (a pivot), and a hook blocks that
    # nvidia-smi: the playbook gets the failing check, not a step nobody saw the output of.
    from spec_debug.session.distill import select_commands

    smi = "ssh gpu01 'nvidia-smi --query-compute-apps=pid,used_memory --format=csv'"
    lines = [_line(0, "user", message={"role": "user", "content": "The EAGLE-3 drafter test fails on gpu01"}),
             _call(1, "toolu_test", "ssh gpu01 'python -m pytest /opt/eagle3/test_draft.py -x'"),
             _result(2, "toolu_test", "Exit code 1\nE   KeyError: 'd2t'\nFAILED test_draft.py::test_vocab_map", True),
             _call(3, "toolu_smi", smi),
             _result(4, "toolu_smi", f"PreToolUse:Bash hook error: [{HOOK}]: gpu01 is shared; ask on-call", True)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [p.seq for p in a.pivots] == [3]  # the agent did change approach
    assert smi not in [c.command for c in select_commands(a)]
