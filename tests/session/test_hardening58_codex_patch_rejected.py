"""A Codex ``apply_patch`` call the tool handler turned away before any file was touched comes
back with no exit code, only the handler's text (openai/codex ``codex-rs/core/src/tools/handlers/
apply_patch.rs``): ``apply_patch handler received invalid patch input`` (the input did not parse
as a patch invocation), ``apply_patch handler received non-apply_patch input``, and, for any
function tool whose JSON arguments did not parse, ``failed to parse function arguments: {e:?}``.
Only ``apply_patch verification failed: …`` was read as a failure: these edits were counted as
ones that worked. The parse errors themselves, when a runner hands them on bare, are the
apply-patch crate's ``ParseError`` texts ``invalid patch: {0}`` and ``invalid hunk at line
{line_number}, {message}`` (``codex-rs/apply-patch/src/parser.rs``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("answer", [
    "apply_patch handler received invalid patch input",
    "apply_patch handler received non-apply_patch input",
    "failed to parse function arguments: Error(\"missing field `input`\", line: 1, column: 2)",
    "invalid patch: The last line of the patch must be '*** End Patch'",
    "invalid hunk at line 3, Expected update hunk to start with a @@ context marker, got: '-a'",
])
def test_a_patch_the_handler_turned_away_is_a_failed_edit(tmp_path: Path, answer: str) -> None:
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "function_call", "name": "apply_patch", "call_id": "p1", "arguments": json.dumps({"input": PATCH})},
        {"type": "function_call_output", "call_id": "p1", "output": answer},
        {"type": "custom_tool_call", "status": "completed", "call_id": "p2", "name": "apply_patch", "input": PATCH},
        {"type": "custom_tool_call_output", "call_id": "p2",
         "output": json.dumps({"output": "Success. Updated the following files:\nM scripts/serve.sh\n",
                               "metadata": {"exit_code": 0, "duration_seconds": 0.0}})},
    )
    (main,) = analyze_path(path).agents
    assert (main["tool_calls"], main["failed_calls"]) == (2, 1)


def test_a_command_printing_those_words_is_no_failed_call(tmp_path: Path) -> None:
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "function_call", "name": "shell_command", "call_id": "c1",
         "arguments": json.dumps({"command": "grep -rn 'invalid patch' notes.md"})},
        {"type": "function_call_output", "call_id": "c1",
         "output": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nnotes.md:3:invalid patch: x\n"},
    )
    (main,) = analyze_path(path).agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 0)
