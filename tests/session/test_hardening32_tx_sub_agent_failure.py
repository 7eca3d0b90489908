"""A sub-agent sent to read the server log on gpu01 could not reach it (its ssh was refused)
and reported back in words; the agent that sent it gave up on the logs and read the draft's
config instead. That is a change of approach after a failure, as it would be had the agent run
the ssh itself, but the report is no error result (``toolUseResult.status`` "completed"), and
the sub-agent's lines are read after its parent's file, so the parent had no pivot and distill
nothing to keep. The failure is now handed to the parent once the sub-agent is read."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "aaaa0000-0000-4000-8000-000000000001"
REFUSED = "ssh: connect to host gpu01 port 22: Connection refused"


def _line(kind: str, uuid: str, content, ts: str, **extra) -> dict:
    return {"type": kind, "uuid": uuid, "sessionId": SID, "timestamp": ts,
            "message": {"role": kind, "content": content}, **extra}


def _session(root: Path, last_sub_command: tuple[str, str, bool]) -> Path:
    folder = root / SID / "subagents"
    folder.mkdir(parents=True)
    report = "Could not read the logs: ssh to gpu01 refused the connection."
    parent = [
        _line("user", "p0", "Why is EAGLE-3 slow on gpu01?", "2026-01-01T00:00:00Z"),
        _line("assistant", "p1", [
            {"type": "text", "text": "Let me delegate reading the server log."},
            {"type": "tool_use", "id": "toolu_agent", "name": "Agent",
             "input": {"description": "read logs", "prompt": "read the sglang log on gpu01",
                       "subagent_type": "general-purpose"}}], "2026-01-01T00:00:10Z"),
        _line("user", "p2", [{"type": "tool_result", "tool_use_id": "toolu_agent", "content": report,
                              "is_error": False}], "2026-01-01T00:05:00Z",
              toolUseResult={"agentId": "abc123", "status": "completed"}),
        _line("assistant", "p3", [
            {"type": "text", "text": "Instead I will look at the draft config."},
            {"type": "tool_use", "id": "toolu_b1", "name": "Bash",
             "input": {"command": "ssh gpu02 cat /models/draft/config.json"}}], "2026-01-01T00:05:10Z"),
        _line("user", "p4", [{"type": "tool_result", "tool_use_id": "toolu_b1", "content": '{"draft_vocab_size": 32000}',
                              "is_error": False}], "2026-01-01T00:05:12Z"),
    ]
    sub = {"isSidechain": True, "agentId": "abc123"}
    command, output, failed = last_sub_command
    child = [
        _line("user", "s0", "read the sglang log on gpu01", "2026-01-01T00:00:11Z", **sub),
        _line("assistant", "s1", [{"type": "tool_use", "id": "toolu_s1", "name": "Bash",
                                   "input": {"command": command}}], "2026-01-01T00:00:20Z", **sub),
        _line("user", "s2", [{"type": "tool_result", "tool_use_id": "toolu_s1", "content": output,
                              "is_error": failed}], "2026-01-01T00:00:25Z", **sub),
        _line("assistant", "s3", [{"type": "text", "text": report}], "2026-01-01T00:04:59Z", **sub),
    ]
    (root / f"{SID}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in parent))
    (folder / "agent-abc123.jsonl").write_text("".join(json.dumps(x) + "\n" for x in child))
    (folder / "agent-abc123.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "read logs", "toolUseId": "toolu_agent"}))
    return root / f"{SID}.jsonl"


def test_what_the_parent_does_after_its_sub_agent_failed_is_a_change_of_approach(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, ("ssh gpu01 tail -50 /var/log/sglang.log",
                                         f"Exit code 255\n{REFUSED}", True)))
    pivots = [(p.agent, p.seq, p.trigger_seq, p.kind, p.to_category) for p in a.pivots]
    assert pivots == [("main", 3, 2, "error", "inspect_config")]
    assert "sub-agent abc123" in a.pivots[0].summary and "Connection refused" in a.pivots[0].summary


def test_a_sub_agent_that_ended_well_hands_nothing_on(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, ("ssh gpu01 tail -50 /var/log/sglang.log", "INFO: server ready", False)))
    assert a.pivots == []
