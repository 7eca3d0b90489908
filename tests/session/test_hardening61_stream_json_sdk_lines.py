"""Newer Agent SDK stream lines: ``{"type": "prompt_suggestion", "suggestion"}`` (the predicted
next prompt, emitted after each turn when promptSuggestions is on), ``{"type": "active_goal",
"value"}`` and ``{"type": "keep_alive"}`` (SDKPromptSuggestionMessage, SDKActiveGoalMessage,
SDKKeepAliveMessage: @anthropic-ai/claude-agent-sdk ``sdk.d.ts``). Each was counted in
``stats.unknown_types``, the count that says a reader met a shape it does not know; they are
bookkeeping, and a suggestion is no prompt the person typed."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "9d4f5e60-7182-4c9d-8eaf-2a3b4c5d6e7f"


def test_sdk_bookkeeping_lines_are_known_and_no_prompt(tmp_path: Path) -> None:
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "model": "claude-sonnet-4-5", "uuid": "i0"},
        {"type": "active_goal", "value": {"condition": "accept length above 2.5", "iterations": 1, "set_at": 1,
                                          "tokens_at_start": 0}, "uuid": "g0", "session_id": SID},
        {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "text", "text": "The draft is loaded on gpu01."}]}, "parent_tool_use_id": None,
         "session_id": SID, "uuid": "a1"},
        {"type": "keep_alive"},
        {"type": "prompt_suggestion", "suggestion": "Restart the server with --speculative-num-steps 5",
         "uuid": "p0", "session_id": SID},
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 900, "num_turns": 1,
         "result": "The draft is loaded on gpu01.", "session_id": SID, "uuid": "r0"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = analyze_path(path).to_json()
    assert out["format"] == "claude-code" and out["stats"]["unknown_types"] == 0
    assert out["prompts"] == [] and out["errors"] == []
