"""Codex's unified exec answers with a header, then ``Output:`` and the command's output (openai/codex
``codex-rs/core/src/tools/handlers/unified_exec.rs`` ``format_exec_response``): ``Process exited with
code N`` or ``Process running with session ID N`` is in the header alone. A server still running
whose log said ``Exit code: 1`` read as a command that exited 1 (a failed command, an error of the
session), and the poll that saw it end with 0 changed nothing. Now only the header says how it
ended; a header's own exit code still counts."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "python -m sglang.launch_server --speculative-algorithm EAGLE3 --port 30000"
LOG = "[2026-01-02 03:05:04] worker probe: Exit code: 1, retrying in 2s\n"


def _rollout(path: Path, first: str, poll: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.128.0"}}]
    items = [{"type": "function_call", "name": "exec_command", "call_id": "c1",
              "arguments": json.dumps({"cmd": LAUNCH, "yield_time_ms": 5000})},
             {"type": "function_call_output", "call_id": "c1", "output": first},
             {"type": "function_call", "name": "write_stdin", "call_id": "c2",
              "arguments": json.dumps({"session_id": 7, "chars": "", "yield_time_ms": 30000})},
             {"type": "function_call_output", "call_id": "c2", "output": poll}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def _header(status: str, output: str) -> str:
    return f"Chunk ID: 3f9a1c\nWall time: 5.0012 seconds\n{status}\nOriginal token count: 21\nOutput:\n{output}"


def test_a_running_command_whose_log_says_exit_code_is_still_running(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl",
                                _header("Process running with session ID 7", LOG),
                                _header("Process exited with code 0", "server stopped\n"))).to_json()
    # was (1, True): the log line's "Exit code: 1" read as the launch's own exit
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, 0, False)]
    assert doc["errors"] == []


def test_the_header_exit_code_still_counts(tmp_path: Path) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl",
                                _header("Process running with session ID 7", LOG),
                                _header("Process exited with code 3", "Exit code: 0 from probe\n"))).to_json()
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(3, True)]
