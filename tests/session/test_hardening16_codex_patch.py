"""A Codex patch that does not apply comes back with no exit code, only a text: the tool handler's
``apply_patch verification failed: {parse_error}`` (openai/codex ``codex-rs/core/src/tools/handlers/
apply_patch.rs``) around the apply-patch crate's ``Failed to find expected lines in {path}:``
(``codex-rs/apply-patch/src/lib.rs``). Such an edit was counted as one that worked."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PATCH = ("*** Begin Patch\n*** Update File: scripts/serve.sh\n@@\n-  --speculative-num-steps 1\n"
         "+  --speculative-num-steps 3\n*** End Patch\n")


def _rollout(path: Path, *items: dict) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_patch_whose_lines_are_not_in_the_file_is_a_failed_edit(tmp_path: Path) -> None:
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "custom_tool_call", "status": "completed", "call_id": "p1", "name": "apply_patch", "input": PATCH},
        {"type": "custom_tool_call_output", "call_id": "p1",
         "output": "apply_patch verification failed: Failed to find expected lines in /work/scripts/serve.sh:\n"
                   "  --speculative-num-steps 1"},
        {"type": "function_call", "name": "apply_patch", "call_id": "p2", "arguments": json.dumps({"input": PATCH})},
        {"type": "function_call_output", "call_id": "p2",
         "output": "Failed to find expected lines in /work/scripts/serve.sh:\n  --speculative-num-steps 1"},
        {"type": "custom_tool_call", "status": "completed", "call_id": "p3", "name": "apply_patch", "input": PATCH},
        {"type": "custom_tool_call_output", "call_id": "p3",
         "output": json.dumps({"output": "Success. Updated the following files:\nM scripts/serve.sh\n",
                               "metadata": {"exit_code": 0, "duration_seconds": 0.0}})},
    )
    a = analyze_path(path)
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (3, 2)


def test_a_command_that_prints_the_words_later_is_not_a_failed_patch(tmp_path: Path) -> None:
    """Only a result that starts with the message is the patch tool's error."""
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "function_call", "name": "shell_command", "call_id": "c1",
         "arguments": json.dumps({"command": "grep -rn 'verification failed' notes.md"})},
        {"type": "function_call_output", "call_id": "c1",
         "output": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nnotes.md:3:apply_patch verification failed: x\n"},
    )
    (main,) = analyze_path(path).agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 0)
