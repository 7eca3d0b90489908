"""``claude --resume A --fork-session`` (which /background and /fork run) writes a session F that
starts with A's lines re-stamped with F's sessionId, uuids kept, and names A nowhere (qlan-ro/
mainframe docs/research/2026-07-25-todo-246-claude-fork.md, against CLI 2.1.219). The sub-agents
A started before the fork were written in A's folder. A project scan finds them through A's
trunk; F's file named alone (``spec-debug analyze <project>/F.jsonl``) listed each as "missing",
its commands lost, though its file sat in the folder beside it. It is now read from there."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A = "aaaa7070-0000-4000-8000-000000000001"
F = "ffff7070-0000-4000-8000-000000000009"
AGENT = "a3b9c2d1e0f47071a"


def _line(n: int, session: str, kind: str, content, agent: str | None = None, **extra) -> dict:
    # The envelope of TRANSCRIPTS.md section 1a (daaain/claude-code-log models.py)
    uuid = f"{agent or 'aaaa'}-{n}"
    line = {"parentUuid": f"{agent or 'aaaa'}-{n - 1}" if n else None, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/w", "sessionId": session, "version": "2.1.219", "type": kind,
            "uuid": uuid, "timestamp": f"2026-07-25T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _head(session: str, agent: str) -> list[dict]:
    return [
        _line(0, session, "user", "why is the draft acceptance so low on gpu01?"),
        _line(1, session, "assistant", [{"type": "tool_use", "id": "toolu_spawn", "name": "Agent", "input": {
            "description": "read the drafter config", "prompt": "read /models/draft/config.json",
            "subagent_type": "general-purpose"}}]),
        _line(2, session, "user", [{"type": "tool_result", "tool_use_id": "toolu_spawn", "content": "vocab 32000"}],
              toolUseResult={"status": "completed", "agentId": agent})]


def _jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _project(tmp_path: Path, agent_in_fork: str = AGENT) -> Path:
    project = tmp_path / "-w"
    _jsonl(project / f"{A}.jsonl", [*_head(A, AGENT), _line(3, A, "user", "try the other checkpoint")])
    # the fork: A's lines re-stamped with F's id, then its own
    _jsonl(project / f"{F}.jsonl", [*_head(F, agent_in_fork), _line(3, F, "user", "rebuild the engine instead")])
    _jsonl(project / A / "subagents" / f"agent-{AGENT}.jsonl", [
        _line(0, A, "user", "read /models/draft/config.json", agent=AGENT),
        _line(1, A, "assistant", [{"type": "tool_use", "id": "toolu_cat", "name": "Bash",
                                   "input": {"command": "ssh gpu01 cat /models/draft/config.json"}}], agent=AGENT),
        _line(2, A, "user", [{"type": "tool_result", "tool_use_id": "toolu_cat", "content": '{"vocab_size": 32000}'}],
              agent=AGENT)])
    (project / A / "subagents" / f"agent-{AGENT}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "read the drafter config", "toolUseId": "toolu_spawn"}))
    return project


def test_a_fork_named_alone_reads_the_sub_agent_from_the_original_folder(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path) / f"{F}.jsonl").to_json()
    assert [(a["id"], a["status"], a["events"], a["spawned_by"]) for a in doc["agents"]] == [
        ("main", "completed", 4, None), (AGENT, "completed", 3, "toolu_spawn")]
    assert doc["agents"][1]["file"] == str(tmp_path / "-w" / A / "subagents" / f"agent-{AGENT}.jsonl")
    assert [(s["id"], s["missing_agent_files"]) for s in doc["sessions"]] == [(F, [])]
    assert [(c["agent"], c["inner"]) for c in doc["commands"]] == [(AGENT, "cat /models/draft/config.json")]


def test_a_sub_agent_no_folder_holds_is_still_missing(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path, agent_in_fork="a0000000000000000") / f"{F}.jsonl").to_json()
    assert [(a["id"], a["status"], a["events"]) for a in doc["agents"]] == [
        ("main", "completed", 4), ("a0000000000000000", "missing", 0)]
    assert doc["sessions"][0]["missing_agent_files"] == ["agent-a0000000000000000.jsonl"]


def test_the_project_scan_still_reads_the_head_and_its_sub_agent_once(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path)).to_json()
    assert sorted((a["session"][:4], a["id"], a["events"]) for a in doc["agents"]) == [
        ("aaaa", AGENT, 3), ("aaaa", "main", 4), ("ffff", "main", 1)]
    assert doc["stats"]["missing_files"] == 0
