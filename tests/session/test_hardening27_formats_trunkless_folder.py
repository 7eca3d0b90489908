"""A folder scan that reaches a Claude Code session folder without its trunk (``<sessionId>/``
with ``subagents/``, the ``<sessionId>.jsonl`` beside it gone or not copied) reads its sub-agents
alone, as naming that folder does. Before, the scan passed subagents/ by: their commands were lost
without a word."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

SESSION = "99990000-0000-4000-8000-000000000009"


def _line(kind: str, uuid: str, parent: str | None, content) -> str:
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": True, "sessionId": SESSION,
                       "agentId": "a1b2c3", "timestamp": "2026-06-15T10:00:12.000Z", "version": "2.1.173",
                       "message": {"role": kind, "content": content}})


def test_a_trunkless_session_folder_in_a_scan_keeps_its_sub_agents(tmp_path):
    agents = tmp_path / "project" / SESSION / "subagents"
    agents.mkdir(parents=True)
    (agents / "agent-a1b2c3.jsonl").write_text("\n".join([
        _line("user", "u1", None, "check the drafter"),
        _line("assistant", "a1", "u1", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                         "input": {"command": "nvidia-smi"}}]),
        _line("user", "u2", "a1", [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                    "content": "Exit code 9\nNVIDIA-SMI has failed"}]),
    ]) + "\n")
    doc = analyze_path(tmp_path).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["agent-a1b2c3"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]
