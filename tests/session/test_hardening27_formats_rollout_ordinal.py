"""2026 Codex CLIs write each rollout line's ``ordinal`` between its time and its type
(``{"timestamp": ..., "ordinal": N, "type": ..., "payload": ...}``, openai/codex ``RolloutLine``).
A rollout whose first line is longer than the sniff window (its session_meta's base instructions)
is told by that line's start; with the ordinal in it, the rollout was a text log of one event, its
commands lost."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _line(ordinal: int, kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": "2026-09-17T08:22:53.411Z", "ordinal": ordinal, "type": kind, "payload": payload},
                      separators=(",", ":"))


def test_a_rollout_with_ordinals_and_a_long_first_line_is_codex(tmp_path):
    path = tmp_path / "rollout-2026-09-17T08-22-53-019a0000-0000-7000-8000-00000000000a.jsonl"
    path.write_text("\n".join([
        _line(0, "session_meta", {"id": "019a0000-0000-7000-8000-00000000000a", "cwd": "/w", "cli_version": "0.130.0",
                                  "base_instructions": {"text": "x" * 300_000}}),
        _line(1, "response_item", {"type": "function_call", "name": "exec_command", "call_id": "c1",
                                   "arguments": json.dumps({"cmd": "nvidia-smi"})}),
        _line(2, "response_item", {"type": "function_call_output", "call_id": "c1",
                                   "output": "Process exited with code 9\nNVIDIA-SMI has failed"}),
    ]) + "\n")
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["format"] == "codex"
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]
