"""A Claude Code session forked (``claude --resume A --fork-session``, the CLI's /branch) leaves a
file F that starts with A's lines, same uuids and messages, their sessionId kept (anthropics/
claude-code issues #4926 and #28463). A project scan reads those shared lines in A only
(``claude_layout.shared_heads``), but F's reader still saw the sub-agent spawns among them:
each sub-agent A started before the fork became an agent of F too, "missing" (its file is in
A's folder), and the summary said "1 sub-agent file missing" of a session that lost nothing.
The spawns of the shared lines are now A's alone, as the lines are."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A = "aaaa6970-0000-4000-8000-000000000001"
F = "ffff6970-0000-4000-8000-000000000009"
AGENT = "a3b9c2d1e0f4"


def _line(n: int, session: str, kind: str, content, agent: str | None = None, **extra) -> dict:
    # The envelope of TRANSCRIPTS.md section 1a (daaain/claude-code-log models.py)
    line = {"parentUuid": f"{agent or session[:4]}-{n - 1}" if n else None, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/w", "sessionId": session, "version": "2.1.30", "type": kind,
            "uuid": f"{agent or session[:4]}-{n}", "timestamp": f"2026-05-01T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_fork_does_not_take_the_sub_agents_its_copied_lines_started(tmp_path: Path) -> None:
    project = tmp_path / "-w"
    head = [
        _line(0, A, "user", "why is the draft acceptance so low on gpu01?"),
        _line(1, A, "assistant", [{"type": "tool_use", "id": "toolu_spawn", "name": "Task", "input": {
            "description": "read the drafter config", "prompt": "read /models/draft/config.json",
            "subagent_type": "general-purpose"}}]),
        _line(2, A, "user", [{"type": "tool_result", "tool_use_id": "toolu_spawn", "content": "vocab 32000"}],
              toolUseResult={"status": "completed", "agentId": AGENT})]
    _jsonl(project / f"{A}.jsonl", [*head, _line(3, A, "user", "try the other checkpoint")])
    _jsonl(project / f"{F}.jsonl", [*head, _line(3, F, "user", "rebuild the engine instead")])
    _jsonl(project / A / "subagents" / f"agent-{AGENT}.jsonl", [
        _line(0, A, "user", "read /models/draft/config.json", agent=AGENT),
        _line(1, A, "assistant", [{"type": "tool_use", "id": "toolu_cat", "name": "Bash",
                                   "input": {"command": "ssh gpu01 cat /models/draft/config.json"}}], agent=AGENT),
        _line(2, A, "user", [{"type": "tool_result", "tool_use_id": "toolu_cat", "content": '{"vocab_size": 32000}'}],
              agent=AGENT)])
    doc = analyze_path(project).to_json()
    assert [(a["session"][:4], a["id"], a["status"], a["events"]) for a in doc["agents"]] == [
        ("aaaa", "main", "completed", 4), ("aaaa", AGENT, "completed", 3), ("ffff", "main", "completed", 1)]
    assert [(s["id"][:4], s["agents"], s["missing_agent_files"]) for s in doc["sessions"]] == [
        ("aaaa", 2, []), ("ffff", 1, [])]
    assert doc["stats"]["missing_files"] == 0
    assert [(c["session"][:4], c["agent"], c["inner"]) for c in doc["commands"]] == [
        ("aaaa", AGENT, "cat /models/draft/config.json")]
