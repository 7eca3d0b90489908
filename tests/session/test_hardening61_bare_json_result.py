"""`claude -p --output-format json` writes one object, the run's `result` line alone (the Agent
SDK's SDKResultMessage, @anthropic-ai/claude-agent-sdk ``sdk.d.ts``): the final answer is only in
`result`. It was read as a system note, so a "96.8 tok/s" there was no metric of the run. It is
the agent's text now; stream-json's result line, which repeats the last assistant message after
an `init` line, is still read once."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "7b2d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d"
SAID = "EAGLE-3 on gpu01 now decodes at 96.8 tok/s; acceptance length 3.1."
RESULT = {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 81234, "duration_api_ms": 60210,
          "num_turns": 7, "result": SAID, "session_id": SID, "total_cost_usd": 0.41,
          "usage": {"input_tokens": 10, "output_tokens": 200}, "permission_denials": [], "uuid": "r0"}


def _metrics(out: dict) -> list[tuple[str, float]]:
    return sorted((m["name"], m["value"]) for m in out["metrics"])


def test_a_bare_json_result_is_the_agents_answer(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(RESULT, indent=2))  # as `claude -p ... --output-format json > run.json` leaves it
    out = analyze_path(path).to_json()
    assert out["format"] == "claude-code" and out["errors"] == []
    assert _metrics(out) == [("accept_length", 3.1), ("throughput", 96.8)]


def test_a_failed_bare_result_is_still_an_error(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps({**RESULT, "is_error": True, "result": "API Error: 529 Overloaded"}))
    out = analyze_path(path).to_json()
    assert [e["kind"] for e in out["errors"]] == ["agent_error"] and out["metrics"] == []


def test_stream_json_reads_the_answer_once(tmp_path: Path) -> None:
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "model": "claude-sonnet-4-5", "uuid": "i0"},
        {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "text", "text": SAID}]}, "parent_tool_use_id": None, "session_id": SID, "uuid": "a1"},
        RESULT,
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = analyze_path(path).to_json()
    assert _metrics(out) == [("accept_length", 3.1), ("throughput", 96.8)]
