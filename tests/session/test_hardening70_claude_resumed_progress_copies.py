"""CLIs before 2.1.71 copied each message of a running sub-agent into the trunk as ``progress``
lines (``data.type: agent_progress``; pixel-agents-hq/pixel-agents issue #93), and the reader takes
that copy only when the sub-agent's own file is not there. ``claude --resume A`` copies A's lines,
those progress lines included, into B; the sub-agent's file is in A's folder. B read the copy and
never the file: the sub-agent had no file and lost its prompt. The file is now read, as for a
session's own sub-agents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

A = "aaaa7074-0000-4000-8000-000000000001"
B = "bbbb7074-0000-4000-8000-000000000002"
AGENT = "a1c1e0f2"


def _line(n: int, session: str, kind: str, content, agent: str | None = None, **extra) -> dict:
    line = {"parentUuid": None, "isSidechain": agent is not None, "userType": "external", "cwd": "/w",
            "sessionId": session, "version": "2.1.50", "type": kind, "uuid": f"{agent or 'u'}-{n}",
            "timestamp": f"2026-05-01T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _project(tmp_path: Path) -> Path:
    sub = [_line(0, A, "user", "check the drafter on gpu01", AGENT),
           _line(1, A, "assistant", [{"type": "tool_use", "id": "toolu_x", "name": "Bash",
                                      "input": {"command": "ssh gpu01 nvidia-smi"}}], AGENT),
           _line(2, A, "user", [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "H100 80GB"}], AGENT)]
    copies = [{"type": "progress", "uuid": f"p-{n}", "parentUuid": None, "sessionId": A, "cwd": "/w",
               "version": "2.1.50", "timestamp": f"2026-05-01T10:00:0{n}.500Z", "parentToolUseID": "toolu_spawn",
               "toolUseID": "toolu_spawn", "data": {"type": "agent_progress", "agentId": AGENT,
                                                    "prompt": "check the drafter on gpu01", "message": {
                                                        "type": m["type"], "timestamp": m["timestamp"],
                                                        "message": m["message"]}}}
              for n, m in enumerate(sub[1:], 1)]
    head = [_line(0, A, "user", "why is the draft acceptance so low on gpu01?"),
            _line(1, A, "assistant", [{"type": "tool_use", "id": "toolu_spawn", "name": "Task", "input": {
                "description": "check gpu01", "prompt": "check the drafter on gpu01",
                "subagent_type": "general-purpose"}}]),
            *copies,
            _line(5, A, "user", [{"type": "tool_result", "tool_use_id": "toolu_spawn", "content": "H100 80GB"}],
                  toolUseResult={"status": "completed", "agentId": AGENT})]
    project = tmp_path / "-w"
    _jsonl(project / f"{A}.jsonl", head)
    _jsonl(project / f"{B}.jsonl", [*head, _line(6, B, "user", "now rebuild the engine")])
    _jsonl(project / A / "subagents" / f"agent-{AGENT}.jsonl", sub)
    return project


@pytest.mark.parametrize("named", ["project", "resumed file"])
def test_the_sub_agent_is_read_from_its_file_not_the_copy(tmp_path: Path, named: str) -> None:
    project = _project(tmp_path)
    doc = analyze_path(project if named == "project" else project / f"{B}.jsonl").to_json()
    assert [s["id"] for s in doc["sessions"]] == [B]
    sub = doc["agents"][1]
    assert (sub["id"], sub["file"], sub["events"], sub["status"]) == (
        AGENT, str(project / A / "subagents" / f"agent-{AGENT}.jsonl"), 3, "completed")
    assert [(c["agent"], c["command"]) for c in doc["commands"]] == [(AGENT, "ssh gpu01 nvidia-smi")]
