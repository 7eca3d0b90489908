"""Claude Code's stream-json (``claude -p --output-format stream-json``) prints ``{"type":
"rate_limit_event", "rate_limit_info": {...}}`` after the first answer of each process logged in
with a subscription, and again when the plan's limit is near or reached. Each was an unknown line
type (a saved run of every such session reported unknown lines), and the warning that the run was
at 91% of its five-hour limit, or stopped by it, was not said. The lines below are a capture of
CLI 2.1.220 hitting its session limit, as a stream-json parser's test quotes it, with the
warning's fields as other stream-json readers parse them."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor

SID = "a74d2edb-d7df-475f-ad7f-2c89def2ca88"
LIMIT = "You've hit your session limit · resets 9am (Europe/Berlin)"
LINES = [
    {"type": "system", "subtype": "init", "cwd": "/w", "session_id": SID, "model": "claude-sonnet-4-5",
     "apiKeySource": "none", "claude_code_version": "2.1.220", "tools": ["Bash"]},
    {"type": "assistant", "uuid": "u1", "session_id": SID, "message": {
        "id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "nvidia-smi"}}]}},
    {"type": "rate_limit_event", "uuid": "u2", "session_id": SID,
     "rate_limit_info": {"status": "allowed", "resetsAt": 1783173600, "rateLimitType": "five_hour",
                         "isUsingOverage": False}},
    {"type": "user", "uuid": "u3", "session_id": SID, "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "| 0  NVIDIA H100 80GB HBM3 |"}]}},
    {"type": "rate_limit_event", "uuid": "u4", "session_id": SID,
     "rate_limit_info": {"status": "allowed_warning", "resetsAt": 1783173600, "rateLimitType": "five_hour",
                         "utilization": 0.91, "isUsingOverage": False}},
    {"type": "rate_limit_event", "uuid": "u5", "session_id": SID,
     "rate_limit_info": {"status": "rejected", "rateLimitType": "five_hour"}},
    {"type": "assistant", "uuid": "u6", "session_id": SID, "error": "rate_limit", "isApiErrorMessage": True,
     "message": {"id": "msg_2", "model": "<synthetic>", "role": "assistant", "content": [{"type": "text", "text": LIMIT}]}},
    {"type": "result", "subtype": "success", "is_error": True, "result": LIMIT, "session_id": SID, "num_turns": 2},
]


def test_stream_json_rate_limit_lines_are_known_and_say_the_limit(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    stats = ReadStats()
    events = list(claude_code.read(path, Cursor(session="s", agent="main", file=str(path)), stats))
    assert stats.unknown_types == 0  # was 3
    assert [e.text for e in events if e.raw_type == "rate_limit_event" and e.kind == "system"] == [
        "rate limit allowed warning (five_hour, 91% used, resets 2026-07-04T14:00:00.000Z)",
        "rate limit rejected (five_hour)"]
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["unknown_types"] == 0
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]
    assert {e["message"] for e in doc["errors"]} == {LIMIT}  # the notes are no errors of their own
