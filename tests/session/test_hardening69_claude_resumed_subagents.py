"""``claude --resume A`` (or ``--continue``, or a session sent to the background) writes a new
file B that starts with A's lines, their sessionId kept (anthropics/claude-code issues #4926 and
#28463; kenn-io/agentsview issue #1370: "copies the entire conversation into a new transcript
under a new session id"). The sub-agents A's lines started were written in A's folder,
``<A>/subagents/agent-<id>.jsonl``, not in B's. A project folder scan drops A (B holds it whole)
and B alone said each of those sub-agents was "missing": their commands and failures were lost
from the analysis, and the summary said "2 sub-agent files missing" of files right beside it.
Analyzed alone, B lost them the same way."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A = "aaaa6969-0000-4000-8000-000000000001"
B = "bbbb6969-0000-4000-8000-000000000002"


def _envelope(n: int, session: str, kind: str, message: dict, agent: str | None = None, **extra) -> dict:
    # The envelope of TRANSCRIPTS.md section 1a (daaain/claude-code-log models.py)
    line = {"parentUuid": f"{agent or session[:4]}-{n - 1}" if n else None, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/home/mei/gpu-debug", "sessionId": session, "version": "2.1.30",
            "type": kind, "uuid": f"{agent or session[:4]}-{n}", "timestamp": f"2026-05-01T10:00:{n:02d}.000Z",
            "message": message, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _call(call: str, name: str, args: dict) -> dict:
    return {"role": "assistant", "model": "claude-opus-4-5", "id": f"msg_{call}", "type": "message",
            "content": [{"type": "tool_use", "id": call, "name": name, "input": args}], "stop_reason": "tool_use"}


def _result(call: str, text: str, is_error: bool = False) -> dict:
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": text,
                                         "is_error": is_error}]}


def _jsonl(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "-home-mei-gpu-debug"
    history = [_envelope(0, A, "user", {"role": "user", "content": "EAGLE-3 made serving slower on gpu01"})]
    for n, agent in ((1, "a5c1e0f2b3d4"), (3, "a7e2f1c0d9b8")):
        call = f"toolu_spawn_{agent}"
        history += [
            _envelope(n, A, "assistant", _call(call, "Task", {"description": f"check {agent}", "prompt": f"look {agent}",
                                                               "subagent_type": "general-purpose"})),
            _envelope(n + 1, A, "user", _result(call, "found it"),
                      toolUseResult={"status": "completed", "agentId": agent, "prompt": f"look {agent}",
                                     "content": [{"type": "text", "text": "found it"}]})]
        folder = project / A / "subagents"
        _jsonl(folder / f"agent-{agent}.jsonl", [
            _envelope(0, A, "user", {"role": "user", "content": f"look {agent}"}, agent=agent),
            _envelope(1, A, "assistant", _call(f"toolu_{agent}_1", "Bash", {"command": f"ssh gpu01 ls /models/{agent}"}),
                      agent=agent),
            _envelope(2, A, "user", _result(f"toolu_{agent}_1", "ls: cannot access: No such file or directory",
                                            is_error=True), agent=agent)])
        (folder / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": f"check {agent}", "toolUseId": call}))
    _jsonl(project / f"{A}.jsonl", history)
    _jsonl(project / f"{B}.jsonl", [*history, _envelope(5, B, "user", {"role": "user", "content": "go on"})])
    return project


def _agents(doc: dict, root: Path) -> list[tuple]:
    return [(a["id"], a["session"], a["status"], a["events"], a["file"] and Path(a["file"]).relative_to(root).as_posix())
            for a in doc["agents"]]


EXPECTED = [
    ("main", B, "completed", 6, f"-home-mei-gpu-debug/{B}.jsonl"),
    ("a5c1e0f2b3d4", B, "completed", 3, f"-home-mei-gpu-debug/{A}/subagents/agent-a5c1e0f2b3d4.jsonl"),
    ("a7e2f1c0d9b8", B, "completed", 3, f"-home-mei-gpu-debug/{A}/subagents/agent-a7e2f1c0d9b8.jsonl"),
]


def test_a_project_scan_reads_the_resumed_sessions_sub_agents_from_its_folder(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path)).to_json()
    assert [s["id"] for s in doc["sessions"]] == [B]
    assert _agents(doc, tmp_path) == EXPECTED
    assert (doc["stats"]["missing_files"], doc["sessions"][0]["missing_agent_files"]) == (0, [])
    assert [(c["agent"], c["inner"]) for c in doc["commands"]] == [
        ("a5c1e0f2b3d4", "ls /models/a5c1e0f2b3d4"), ("a7e2f1c0d9b8", "ls /models/a7e2f1c0d9b8")]


def test_the_resumed_file_analyzed_alone_reads_them_too(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path) / f"{B}.jsonl").to_json()
    assert _agents(doc, tmp_path) == EXPECTED
    assert doc["stats"]["missing_files"] == 0


def test_a_sub_agent_gone_from_the_resumed_sessions_folder_is_still_missing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / A / "subagents" / "agent-a7e2f1c0d9b8.jsonl").unlink()
    doc = analyze_path(project / f"{B}.jsonl").to_json()
    assert [(a["id"], a["status"]) for a in doc["agents"]] == [
        ("main", "completed"), ("a5c1e0f2b3d4", "completed"), ("a7e2f1c0d9b8", "missing")]
    assert doc["sessions"][0]["missing_agent_files"] == ["agent-a7e2f1c0d9b8.jsonl"]


def test_a_session_id_that_is_a_path_is_not_followed(tmp_path: Path) -> None:
    # A line's sessionId is the file's word, not a path to follow out of the project folder.
    project = tmp_path / "p" / "-w"
    outside = tmp_path / "p" / "subagents"
    _jsonl(outside / "agent-a0.jsonl", [_envelope(0, "x", "user", {"role": "user", "content": "look"}, agent="a0")])
    _jsonl(project / f"{B}.jsonl", [
        _envelope(0, "..", "user", {"role": "user", "content": "go"}),
        _envelope(1, "..", "assistant", _call("toolu_s", "Task", {"description": "d", "prompt": "look"})),
        _envelope(2, "..", "user", _result("toolu_s", "done"), toolUseResult={"status": "completed", "agentId": "a0"})])
    doc = analyze_path(project / f"{B}.jsonl").to_json()
    assert [(a["id"], a["status"], a["file"]) for a in doc["agents"]][1:] == [("a0", "missing", None)]


def test_read_by_worker_processes_too(tmp_path: Path, monkeypatch) -> None:
    # A long trunk is parsed by worker processes, which hand each spawn back as a tuple.
    from spec_debug.session import parallel
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 700)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    doc = analyze_path(_project(tmp_path) / f"{B}.jsonl").to_json()
    assert _agents(doc, tmp_path) == EXPECTED


def test_a_sub_agents_folder_copied_alone_reads_a_nested_agent_once(tmp_path: Path) -> None:
    # <A>/subagents/ without its trunk: each file is read alone, and a nested sub-agent's spawn
    # (in its parent agent's file, the sessionId A's, not the file's name) does not pull the
    # nested file into its parent's reading as well.
    folder = tmp_path / A / "subagents"
    _jsonl(folder / "agent-a1.jsonl", [
        _envelope(0, A, "user", {"role": "user", "content": "survey"}, agent="a1"),
        _envelope(1, A, "assistant", _call("toolu_n", "Task", {"description": "d", "prompt": "deeper"}), agent="a1"),
        _envelope(2, A, "user", _result("toolu_n", "done"), agent="a1",
                  toolUseResult={"status": "completed", "agentId": "a2"})])
    _jsonl(folder / "agent-a2.jsonl", [
        _envelope(0, A, "user", {"role": "user", "content": "deeper"}, agent="a2"),
        _envelope(1, A, "assistant", _call("toolu_d", "Bash", {"command": "ssh gpu01 nvidia-smi"}), agent="a2"),
        _envelope(2, A, "user", _result("toolu_d", "GPU 0: H100"), agent="a2")])
    doc = analyze_path(folder).to_json()
    assert [(c["session"], c["inner"]) for c in doc["commands"]] == [("agent-a2", "nvidia-smi")]
