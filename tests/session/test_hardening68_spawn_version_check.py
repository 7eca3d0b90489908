"""A sub-agent sent to launch SGLang with EAGLE-3 on gpu01 failed (argparse: "invalid choice:
'EAGLE3'") and reported back; the agent that sent it then ran `pip show sglang` on gpu01. That
is the turn to checking the installed version, as it is after a failed launch of the agent's
own (hardening67), but the hand-over of a sub-agent's failure (_after_spawns) took the call's
``commands[]`` category, "other", which counts as the ordinary retry loop: no pivot, and
distill had nothing to keep. The version check now has its own kind in that path too; the
pivot's ``to_category`` stays "other", as ``commands[]`` has it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening32_tx_sub_agent_failure import _line, SID

_LAUNCH = "ssh gpu01 'python -m sglang.launch_server --model m --speculative-algorithm EAGLE3'"
_FAILED = ("Exit code 2\nlaunch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
           "(choose from 'EAGLE', 'NEXTN')")


def _session(root: Path, parent_command: str, output: str) -> Path:
    folder = root / SID / "subagents"
    folder.mkdir(parents=True)
    report = "The launch failed: this SGLang does not know EAGLE3."
    parent = [
        _line("user", "p0", "Serve the EAGLE-3 draft on gpu01", "2026-01-01T00:00:00Z"),
        _line("assistant", "p1", [
            {"type": "tool_use", "id": "toolu_agent", "name": "Agent",
             "input": {"description": "launch", "prompt": "launch sglang with EAGLE3 on gpu01",
                       "subagent_type": "general-purpose"}}], "2026-01-01T00:00:10Z"),
        _line("user", "p2", [{"type": "tool_result", "tool_use_id": "toolu_agent", "content": report,
                              "is_error": False}], "2026-01-01T00:05:00Z",
              toolUseResult={"agentId": "abc123", "status": "completed"}),
        _line("assistant", "p3", [
            {"type": "tool_use", "id": "toolu_b1", "name": "Bash", "input": {"command": parent_command}}],
              "2026-01-01T00:05:10Z"),
        _line("user", "p4", [{"type": "tool_result", "tool_use_id": "toolu_b1", "content": output,
                              "is_error": False}], "2026-01-01T00:05:12Z"),
    ]
    sub = {"isSidechain": True, "agentId": "abc123"}
    child = [
        _line("user", "s0", "launch sglang with EAGLE3 on gpu01", "2026-01-01T00:00:11Z", **sub),
        _line("assistant", "s1", [{"type": "tool_use", "id": "toolu_s1", "name": "Bash",
                                   "input": {"command": _LAUNCH}}], "2026-01-01T00:00:20Z", **sub),
        _line("user", "s2", [{"type": "tool_result", "tool_use_id": "toolu_s1", "content": _FAILED,
                              "is_error": True}], "2026-01-01T00:00:25Z", **sub),
        _line("assistant", "s3", [{"type": "text", "text": report}], "2026-01-01T00:04:59Z", **sub),
    ]
    (root / f"{SID}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in parent))
    (folder / "agent-abc123.jsonl").write_text("".join(json.dumps(x) + "\n" for x in child))
    (folder / "agent-abc123.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "launch", "toolUseId": "toolu_agent"}))
    return root / f"{SID}.jsonl"


def test_a_version_check_after_a_sub_agents_failed_launch_is_a_pivot(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, "ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1"))
    assert [(p.agent, p.seq, p.trigger_seq, p.kind, p.to_category) for p in a.pivots] == [
        ("main", 3, 2, "error", "other")]
    summary = a.pivots[0].summary
    assert summary.startswith("After sub-agent abc123's ")
    assert summary.endswith(" to checking installed versions: pip show sglang (on gpu01)")
    assert [c.category for c in a.commands if c.agent == "main"] == ["other"]  # commands[] as before


def test_another_command_of_kind_other_is_still_no_pivot(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, "ssh gpu01 'pip download sglang==0.4.6 -d /tmp/w'", "Saved"))
    assert a.pivots == []
