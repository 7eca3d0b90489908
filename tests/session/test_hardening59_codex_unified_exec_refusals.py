"""Codex's unified exec tool (``exec_command``) answers some calls with words of its own and no exit
code (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``): ``exec_command failed:
{err:?}`` when the process could not be started (``CreateProcess { message }``, a ``workdir`` that
does not exist; ``codex-rs/core/src/unified_exec/errors.rs``), ``failed to parse exec_command
arguments: …`` when the call's JSON did not parse, and ``approval policy is {policy:?}; reject
command — you cannot ask for escalated permissions …`` when the command asked to leave the sandbox
under a policy that cannot ask. Each read as a command that ran fine. Now the first two are failed
calls and the third a call the approval policy refused (``denied``, not run), as for Codex's other
refusals (test_hardening18_codex_more_declined.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

CMD = "python -m sglang.bench_serving --backend sglang --num-prompts 200"


def _rollout(path: Path, output: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    items = [{"type": "function_call", "name": "exec_command", "call_id": "c1",
              "arguments": json.dumps({"cmd": CMD, "workdir": "/home/ubuntu/sglang/benchmark",
                                       "sandbox_permissions": "require_escalated"})},
             {"type": "function_call_output", "call_id": "c1", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


@pytest.mark.parametrize("output", [
    'exec_command failed: CreateProcess { message: "Failed to spawn: No such file or directory (os error 2)" }',
    'failed to parse exec_command arguments: Error("missing field `cmd`", line: 1, column: 2)',
])
def test_a_command_that_could_not_start_is_a_failed_call(tmp_path: Path, output: str) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", output)).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [True]  # was False
    assert [e["kind"] for e in doc["errors"]] == ["tool_error"]


@pytest.mark.parametrize("refusal", [
    "approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never",
    # the shell tools' wording (codex-rs/core/src/tools/handlers/shell.rs run_exec_like)
    "approval policy is OnFailure; reject command — you should not ask for escalated permissions if the approval "
    "policy is OnFailure",
])
def test_an_escalation_the_policy_refused_is_denied_not_run(tmp_path: Path, refusal: str) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", refusal)).to_json()
    assert [(c["is_error"], c["exit_code"]) for c in doc["commands"]] == [(True, None)]
    assert [e["kind"] for e in doc["errors"]] == ["denied"]
