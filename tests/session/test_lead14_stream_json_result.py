"""`claude -p --output-format stream-json` ends with a `result` line. A failed run says so there:
an `error_*` subtype (max turns, an exception during execution, the budget), or a failed API
call written as subtype "success" with `is_error: true` and the message in `result` (the shape
of the Agent SDK's SDKResultMessage; the 404 line is quoted in pathscale/RustAgentAbstraction#14).
Such a session said 0 errors; the run's failure is now an `agent_error`, and a clean run's
result is none."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

HEAD = [
    {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": "s1", "tools": ["Bash"],
     "model": "claude-opus-4-5"},
    {"type": "assistant", "session_id": "s1", "message": {"id": "m1", "type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi"}}]}},
    {"type": "user", "session_id": "s1", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "GPU 0: NVIDIA H200", "is_error": False}]}},
]


def analyzed(tmp_path: Path, result: dict) -> dict:
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [*HEAD, {"type": "result", "session_id": "s1",
                                                                     "duration_ms": 1200, "num_turns": 2, **result}]))
    return analyze_path(path).to_json()


def test_an_api_failure_written_as_success_is_an_agent_error(tmp_path):
    said = "There's an issue with the selected model (bogus-model-xyz). It may not exist or you may not have access to it."
    out = analyzed(tmp_path, {"subtype": "success", "is_error": True, "api_error_status": 404, "result": said})
    assert [(e["kind"], e["message"], e["seq"]) for e in out["errors"]] == [("agent_error", said, 3)]
    assert out["stats"]["errors"] == 1 and [c["host"] for c in out["commands"]] == ["gpu01"]


def test_max_turns_is_an_agent_error_named_by_its_subtype(tmp_path):
    out = analyzed(tmp_path, {"subtype": "error_max_turns", "is_error": True})
    assert [(e["kind"], e["message"]) for e in out["errors"]] == [("agent_error", "error max turns")]


def test_a_clean_result_is_no_error(tmp_path):
    out = analyzed(tmp_path, {"subtype": "success", "is_error": False, "result": "GPU 0 is an H200."})
    assert out["errors"] == [] and out["stats"]["errors"] == 0
