"""A Codex shell call that could not be run (a ``workdir`` that does not exist: the spawn fails with
``NotFound``) comes back to the model as ``execution error: {err:?}``, with no exit code
(openai/codex ``codex-rs/core/src/tools/events.rs`` ``ToolEmitter::finish``, the
``Err(ToolError::Codex(err))`` arm). Its ``exec_command_end`` (exit -1, status failed) is not kept
by the rollout's default persistence (``codex-rs/core/src/rollout/policy.rs``
``should_persist_event_msg``: ``ExecCommandEnd`` false), so the ``function_call_output`` is all
the rollout has. It read as a command that ran fine; now it is a failed call. A command whose own
output merely mentions those words is no failure."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

FAILED = 'execution error: Io(Os { code: 2, kind: NotFound, message: "No such file or directory" })'


def _rollout(path: Path, output: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.58.0"}}]
    items = [{"type": "function_call", "name": "shell", "call_id": "c1",
              "arguments": json.dumps({"command": ["bash", "-lc", "python bench_serving.py --num-prompts 200"],
                                       "workdir": "/home/ubuntu/sglang/benchmark"})},
             {"type": "function_call_output", "call_id": "c1", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_call_codex_could_not_run_is_a_failed_call(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", FAILED)).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [True]  # was False: a run that went fine
    assert [e["message"] for e in doc["errors"]] == [FAILED]


def test_output_quoting_the_words_is_no_failure(tmp_path: Path) -> None:
    quoted = json.dumps({"output": "notes.md:3:execution error: x\n", "metadata": {"exit_code": 0,
                                                                             "duration_seconds": 0.1}})
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", quoted)).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [False]
