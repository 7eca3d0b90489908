"""Claude Code's cleanup deletes a session's ``<id>.jsonl`` after cleanupPeriodDays and leaves its
``<id>/subagents/`` folder (anthropics/claude-code issues #55407, #47717, #95403: "session UUID
directories survive with subagent artifacts intact, main .jsonl files gone"). When a later session
B resumed A (``claude --resume A``: B starts with A's lines, their sessionId kept), a scan of the
project read A's sub-agents twice: once in B, whose copied lines started them, and once more as
sessions of their own (the orphan folder's files read alone), each command and error counted
twice. B now reads the whole folder, and its files are no sessions of their own."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A = "aaaa7072-0000-4000-8000-000000000001"
B = "bbbb7072-0000-4000-8000-000000000002"
LINKED, LOOSE = "a1c1e0f2b3d47072a", "a2c1e0f2b3d47072b"


def _line(n: int, session: str, kind: str, content, agent: str | None = None, **extra) -> dict:
    line = {"parentUuid": f"{agent or 'u'}-{n - 1}" if n else None, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/w", "sessionId": session, "version": "2.1.126", "type": kind,
            "uuid": f"{agent or 'u'}-{n}", "timestamp": f"2026-05-01T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _agent(project: Path, agent: str, host: str, spawned_by: str | None) -> None:
    _jsonl(project / A / "subagents" / f"agent-{agent}.jsonl", [
        _line(0, A, "user", f"check the drafter on {host}", agent=agent),
        _line(1, A, "assistant", [{"type": "tool_use", "id": f"toolu_{agent}", "name": "Bash",
                                   "input": {"command": f"ssh {host} nvidia-smi"}}], agent=agent),
        _line(2, A, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{agent}", "content": "H100 80GB"}],
              agent=agent)])
    if spawned_by is not None:
        (project / A / "subagents" / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": f"check {host}", "toolUseId": spawned_by}))


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "-w"
    _jsonl(project / f"{B}.jsonl", [
        # what the resumed process writes first, in its own name (a SessionStart hook's progress)
        {"type": "progress", "uuid": "p-0", "parentUuid": None, "sessionId": B, "cwd": "/w", "version": "2.1.126",
         "timestamp": "2026-05-01T09:59:59.000Z", "data": {"type": "hook_progress", "hookEvent": "SessionStart",
                                                           "hookName": "SessionStart:resume", "command": "echo hi"}},
        _line(0, A, "user", "why is the draft acceptance so low on gpu01?"),
        _line(1, A, "assistant", [{"type": "tool_use", "id": "toolu_spawn", "name": "Agent", "input": {
            "description": "check gpu01", "prompt": "check the drafter on gpu01", "subagent_type": "general-purpose"}}]),
        _line(2, A, "user", [{"type": "tool_result", "tool_use_id": "toolu_spawn", "content": "H100 80GB"}],
              toolUseResult={"status": "completed", "agentId": LINKED}),
        _line(3, B, "user", "now rebuild the engine")])
    _agent(project, LINKED, "gpu01", "toolu_spawn")
    _agent(project, LOOSE, "gpu02", None)  # one B's lines never started: A's own, after B copied it
    return project  # A.jsonl itself is gone


def test_the_resumed_session_reads_the_orphan_folder_once(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path)).to_json()
    assert [s["id"] for s in doc["sessions"]] == [B]
    assert [(a["id"], a["parent"], a["spawned_by"], a["events"]) for a in doc["agents"]] == [
        ("main", None, None, 5), (LINKED, "main", "toolu_spawn", 3), (LOOSE, None, None, 3)]
    assert sorted(c["command"] for c in doc["commands"]) == ["ssh gpu01 nvidia-smi", "ssh gpu02 nvidia-smi"]
    assert doc["stats"]["missing_files"] == 0


def test_an_orphan_folder_no_session_copied_is_still_read_alone(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / f"{B}.jsonl").unlink()
    doc = analyze_path(project).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == [f"agent-{LINKED}", f"agent-{LOOSE}"]
    assert sorted(c["command"] for c in doc["commands"]) == ["ssh gpu01 nvidia-smi", "ssh gpu02 nvidia-smi"]
