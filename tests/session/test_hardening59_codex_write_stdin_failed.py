"""Codex's unified exec tool answers a ``write_stdin`` it could not do with ``write_stdin failed:
{err}`` and no exit code (openai/codex ``codex-rs/core/src/tools/handlers/unified_exec.rs``;
``UnifiedExecError`` in ``codex-rs/core/src/unified_exec/errors.rs``: ``Unknown process id N``,
written ``UnknownProcessId { process_id: "N" }`` by releases that format it with ``{err:?}``, and
``stdin is closed for this session; ...``). A line typed into a shell that was gone read as a
command that ran fine, and a poll's failure as more output of the command it polled. Now the call
failed (a tool error), and the polled command is not blamed for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _rollout(path: Path, items: list[dict]) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def _started(cmd: str, tty: bool) -> list[dict]:
    return [{"type": "function_call", "name": "exec_command", "call_id": "c1",
             "arguments": json.dumps({"cmd": cmd, "tty": tty})},
            {"type": "function_call_output", "call_id": "c1",
             "output": "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 7\nOutput:\nstarting\n"}]


@pytest.mark.parametrize("said", ["write_stdin failed: Unknown process id 7",
                                  'write_stdin failed: UnknownProcessId { process_id: "7" }'])
def test_a_line_typed_into_a_gone_shell_failed(tmp_path: Path, said: str) -> None:
    items = _started("ssh gpu01", True) + [
        {"type": "function_call", "name": "write_stdin", "call_id": "c2",
         "arguments": json.dumps({"session_id": 7, "chars": "nvidia-smi\n"})},
        {"type": "function_call_output", "call_id": "c2", "output": said}]
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", items)).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("ssh gpu01", False), ("nvidia-smi", True)]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("tool_error", said)]


def test_a_failed_poll_is_its_own_failed_call(tmp_path: Path) -> None:
    said = "write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open"
    items = _started("python -m sglang.launch_server --model-path m", False) + [
        {"type": "function_call", "name": "write_stdin", "call_id": "c2",
         "arguments": json.dumps({"session_id": 7, "chars": "y\n"})},
        {"type": "function_call_output", "call_id": "c2", "output": said}]
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", items)).to_json()
    assert doc["agents"][0]["failed_calls"] == 1  # was 0
    assert [e["kind"] for e in doc["errors"]] == ["tool_error"]
    assert [c["is_error"] for c in doc["commands"]] == [False]  # the server is not blamed
