"""Claude Code 2.1 copies a conversation into a new session file in three ways, and none keeps
the copied lines' sessionId (qlan-ro/mainframe ``docs/research/2026-07-25-todo-246-claude-fork.md``,
read against CLI 2.1.219): ``claude --resume A --fork-session`` (and ``/background``, ``/fork``,
which run it) re-stamps every copied line with the new session's id and keeps the uuids;
``/branch`` does the same and adds ``forkedFrom: {sessionId: A, messageUuid}`` to each line.
Sending a running session to the background leaves A stopped mid-conversation and goes on in
the copy (kenn-io/agentsview issue #1370). The sub-agents A's lines started were written in A's
folder. A project scan drops A (the copy holds it whole) and the copy's lines name only the
copy: each sub-agent was "missing", its commands and failures lost. Read alone, a /branch copy
lost them the same way."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A = "aaaa6971-0000-4000-8000-000000000001"
C = "cccc6971-0000-4000-8000-000000000003"
F = "ffff6971-0000-4000-8000-000000000009"


def _line(n: int, session: str, kind: str, content, agent: str | None = None, **extra) -> dict:
    # The envelope of TRANSCRIPTS.md section 1a (daaain/claude-code-log models.py)
    line = {"parentUuid": f"{agent or 'm'}-{n - 1}" if n else None, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/w", "sessionId": session, "version": "2.1.219", "type": kind,
            "uuid": f"{agent or 'm'}-{n}", "timestamp": f"2026-07-25T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _spawn(n: int, session: str, agent: str) -> list[dict]:
    call = f"toolu_spawn_{agent}"
    return [_line(n, session, "assistant", [{"type": "tool_use", "id": call, "name": "Agent", "input": {
                "description": f"check {agent}", "prompt": f"look {agent}", "subagent_type": "general-purpose"}}]),
            _line(n + 1, session, "user", [{"type": "tool_result", "tool_use_id": call, "content": "done"}],
                  toolUseResult={"status": "completed", "agentId": agent})]


def _jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _agent(project: Path, session: str, agent: str) -> None:
    folder = project / session / "subagents"
    _jsonl(folder / f"agent-{agent}.jsonl", [
        _line(0, session, "user", f"look {agent}", agent=agent),
        _line(1, session, "assistant", [{"type": "tool_use", "id": f"toolu_{agent}", "name": "Bash",
                                         "input": {"command": f"ssh gpu01 ls /models/{agent}"}}], agent=agent),
        _line(2, session, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{agent}", "content": "config.json"}],
              agent=agent)])
    (folder / f"agent-{agent}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": f"check {agent}", "toolUseId": f"toolu_spawn_{agent}"}))


def _restamped(lines: list[dict], session: str, **extra) -> list[dict]:
    return [{**line, "sessionId": session, **({"forkedFrom": {"sessionId": line["sessionId"], "messageUuid": line["uuid"]}}
                                             if extra.get("branch") else {})} for line in lines]


def _summary(doc: dict) -> tuple:
    return ([s["id"][:4] for s in doc["sessions"]],
            [(a["id"], a["status"], a["events"], a["id"] != "main" and a["file"] and Path(a["file"]).parent.parent.name[:4])
             for a in doc["agents"]],
            [(c["agent"], c["inner"]) for c in doc["commands"]], doc["stats"]["missing_files"])


def test_a_session_sent_to_the_background_keeps_the_sub_agents_it_started_before(tmp_path: Path) -> None:
    project = tmp_path / "-w"
    history = [_line(0, A, "user", "EAGLE-3 made serving slower on gpu01"), *_spawn(1, A, "a1f00d")]
    _jsonl(project / f"{A}.jsonl", history)
    _agent(project, A, "a1f00d")
    # --fork-session's file opens with a mode record of its own, then the copy, then the new turn
    _jsonl(project / f"{F}.jsonl", [{"type": "mode", "mode": "normal", "sessionId": F}, *_restamped(history, F),
                                    _line(3, F, "user", "go on in the background")])
    assert _summary(analyze_path(project).to_json()) == (
        ["ffff"], [("main", "completed", 5, False), ("a1f00d", "completed", 3, "aaaa")],
        [("a1f00d", "ls /models/a1f00d")], 0)


def test_a_branch_read_alone_finds_them_by_its_forked_from(tmp_path: Path) -> None:
    project = tmp_path / "-w"
    history = [_line(0, A, "user", "EAGLE-3 made serving slower on gpu01"), *_spawn(1, A, "a1f00d")]
    _jsonl(project / f"{A}.jsonl", history)
    _agent(project, A, "a1f00d")
    _jsonl(project / f"{F}.jsonl", [*_restamped(history, F, branch=True), _line(3, F, "user", "try the other fix")])
    assert _summary(analyze_path(project / f"{F}.jsonl").to_json()) == (
        ["ffff"], [("main", "completed", 4, False), ("a1f00d", "completed", 3, "aaaa")],
        [("a1f00d", "ls /models/a1f00d")], 0)


def test_a_session_forked_on_twice_reads_the_sub_agents_of_both_it_holds(tmp_path: Path) -> None:
    project = tmp_path / "-w"
    first = [_line(0, A, "user", "EAGLE-3 made serving slower on gpu01"), *_spawn(1, A, "a1f00d")]
    second = [*_restamped(first, C), *_spawn(3, C, "c2f00d")]
    _jsonl(project / f"{A}.jsonl", first)
    _jsonl(project / f"{C}.jsonl", second)
    _jsonl(project / f"{F}.jsonl", [*_restamped(second, F), _line(5, F, "user", "and once more")])
    _agent(project, A, "a1f00d")
    _agent(project, C, "c2f00d")
    assert _summary(analyze_path(project).to_json()) == (
        ["ffff"], [("main", "completed", 6, False), ("a1f00d", "completed", 3, "aaaa"),
                   ("c2f00d", "completed", 3, "cccc")],
        [("a1f00d", "ls /models/a1f00d"), ("c2f00d", "ls /models/c2f00d")], 0)


def test_the_held_sessions_other_files_are_not_read_as_agents_of_the_copy(tmp_path: Path) -> None:
    # Only what the copy's spawns name is taken from the held session's folder.
    project = tmp_path / "-w"
    history = [_line(0, A, "user", "EAGLE-3 made serving slower on gpu01"), *_spawn(1, A, "a1f00d")]
    _jsonl(project / f"{A}.jsonl", history)
    _agent(project, A, "a1f00d")
    _agent(project, A, "a9stray")
    _jsonl(project / f"{F}.jsonl", [*_restamped(history, F), _line(3, F, "user", "go on")])
    assert [a["id"] for a in analyze_path(project).to_json()["agents"]] == ["main", "a1f00d"]
