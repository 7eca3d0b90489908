"""A resumed or forked Claude Code session read without the session it copied (its file sent
alone, or copied to another machine): the sub-agents the copied lines started were the original
session's, written in its folder. They are still "missing" from the analysis (their work is not
there), but the list of missing files says whose they are: the session the copied line names
(its sessionId kept by ``claude --resume``, or /branch's ``forkedFrom``), not a file this one lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

A = "aaaa7071-0000-4000-8000-000000000001"
F = "ffff7071-0000-4000-8000-000000000009"
AGENT = "a3b9c2d1e0f47072b"


def _line(n: int, session: str, kind: str, content, **extra) -> dict:
    return {"parentUuid": f"u-{n - 1}" if n else None, "isSidechain": False, "userType": "external", "cwd": "/w",
            "sessionId": session, "version": "2.1.219", "type": kind, "uuid": f"u-{n}",
            "timestamp": f"2026-07-25T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}


def _session(tmp_path: Path, head_session: str, **extra) -> Path:
    lines = [
        _line(0, head_session, "user", "why is the draft acceptance so low on gpu01?", **extra),
        _line(1, head_session, "assistant", [{"type": "tool_use", "id": "toolu_spawn", "name": "Agent", "input": {
            "description": "read the drafter config", "prompt": "read /models/draft/config.json",
            "subagent_type": "general-purpose"}}], **extra),
        _line(2, head_session, "user", [{"type": "tool_result", "tool_use_id": "toolu_spawn", "content": "vocab 32000"}],
              toolUseResult={"status": "completed", "agentId": AGENT}, **extra),
        _line(3, F, "user", "rebuild the engine instead")]
    path = tmp_path / "-w" / f"{F}.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("head_session, extra", [
    (A, {}),  # claude --resume A: the copied lines keep A's sessionId
    (F, {"forkedFrom": {"sessionId": A, "messageUuid": "u-2"}}),  # /branch: re-stamped, forkedFrom names A
], ids=["resumed", "branched"])
def test_the_missing_sub_agent_is_named_as_the_copied_session_s(tmp_path: Path, head_session: str, extra: dict) -> None:
    doc = analyze_path(_session(tmp_path, head_session, **extra)).to_json()
    assert [(a["id"], a["status"]) for a in doc["agents"]] == [("main", "completed"), (AGENT, "missing")]
    assert doc["sessions"][0]["missing_agent_files"] == [
        f"agent-{AGENT}.jsonl (started in session {A}, whose folder is not beside this one)"]
    assert doc["stats"]["missing_files"] == 1


def test_a_sub_agent_the_session_itself_started_is_named_as_before(tmp_path: Path) -> None:
    doc = analyze_path(_session(tmp_path, F)).to_json()
    assert [(a["id"], a["status"]) for a in doc["agents"]] == [("main", "completed"), (AGENT, "missing")]
    assert doc["sessions"][0]["missing_agent_files"] == [f"agent-{AGENT}.jsonl"]
