"""An agent-team teammate (CLI 2.1.32+: an ``Agent`` call with ``team_name`` and ``name``) is
answered with a launch receipt, ``toolUseResult {"status": "teammate_spawned", "agent_id":
"bench@eagle", "name", "team_name", …}`` (the shape several independent readers of agent teams
parse), and writes its transcript in the lead's ``subagents/`` with a sidecar that has no
``toolUseId`` (``taskKind: "in_process_teammate"``).

Before, the teammate linked by its opening prompt was given ``teammate_spawned`` as its status: a
word outside the documented set (completed | failed | interrupted | missing | running | unknown),
and a teammate whose every command failed did not read as failed. Now the receipt says nothing of
how it did; its own file does."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LEAD = "77770000-0000-4000-8000-000000000077"
TEAMMATE = "a5f3c2d1e0b9a871"


def _line(n: int, kind: str, content, *, agent: str | None = None, **extra) -> str:
    line = {"type": kind, "uuid": f"{agent or 'lead'}-{n}", "parentUuid": f"{agent or 'lead'}-{n - 1}" if n else None,
            "isSidechain": agent is not None, "sessionId": LEAD, "userType": "external", "cwd": "/srv/eagle",
            "version": "2.1.40", "teamName": "eagle", "timestamp": f"2026-06-15T10:0{1 if agent else 0}:{n:02d}.000Z",
            "message": {"role": kind, "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return json.dumps(line)


def _session(tmp_path: Path) -> Path:
    lead = tmp_path / f"{LEAD}.jsonl"
    lead.write_text("\n".join([
        _line(0, "user", "benchmark the EAGLE-3 drafter with a team"),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_01Bench", "name": "Agent", "input": {
            "name": "bench", "team_name": "eagle", "subagent_type": "general-purpose",
            "description": "bench", "prompt": "run the acceptance benchmark"}}]),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Bench", "content": [{
            "type": "text", "text": "Spawned successfully.\nagent_id: bench@eagle\nname: bench\nteam_name: eagle\n"
                                    "The agent is now running and will receive instructions via mailbox."}]}],
              toolUseResult={"status": "teammate_spawned", "teammate_id": "bench@eagle", "agent_id": "bench@eagle",
                             "name": "bench", "color": "blue", "team_name": "eagle",
                             "prompt": "run the acceptance benchmark"}),
        _line(3, "assistant", [{"type": "text", "text": "The bench teammate is running the benchmark."}]),
    ]) + "\n")
    agents = tmp_path / LEAD / "subagents"
    agents.mkdir(parents=True)
    (agents / f"agent-{TEAMMATE}.jsonl").write_text("\n".join([
        _line(0, "user", "run the acceptance benchmark", agent=TEAMMATE),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_01Run", "name": "Bash",
                                "input": {"command": "python bench_eagle3.py --spec"}}], agent=TEAMMATE),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Run", "is_error": True,
                           "content": "Exit code 1\ntorch.OutOfMemoryError: CUDA out of memory"}], agent=TEAMMATE),
    ]) + "\n")
    (agents / f"agent-{TEAMMATE}.meta.json").write_text(json.dumps(
        {"agentType": "bench", "taskKind": "in_process_teammate", "name": "bench"}))
    return lead


def test_a_teammate_reads_as_its_own_file_says(tmp_path: Path) -> None:
    doc = analyze_path(_session(tmp_path)).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"], a["status"], a["failed_calls"]) for a in doc["agents"]] == [
        ("main", None, None, "completed", 0),
        (TEAMMATE, "main", "toolu_01Bench", "failed", 1),
    ]


def test_a_teammate_whose_work_went_well_is_completed(tmp_path: Path) -> None:
    lead = _session(tmp_path)
    teammate = tmp_path / LEAD / "subagents" / f"agent-{TEAMMATE}.jsonl"
    teammate.write_text(teammate.read_text().replace('"is_error": true', '"is_error": false')
                        .replace("Exit code 1\\ntorch.OutOfMemoryError: CUDA out of memory", "accept length 3.1"))
    doc = analyze_path(lead).to_json()
    assert [(a["id"], a["status"]) for a in doc["agents"]] == [("main", "completed"), (TEAMMATE, "completed")]


def _opens_with_the_leads_message(tmp_path: Path) -> Path:
    # A teammate's file need not open with its call's prompt: here the lead's message wraps it,
    # and the sidecar's name is the link left
    lead = _session(tmp_path)
    teammate = tmp_path / LEAD / "subagents" / f"agent-{TEAMMATE}.jsonl"
    lines = teammate.read_text().splitlines()
    lines[0] = _line(0, "user", '<teammate-message teammate_id="team-lead">run the acceptance benchmark'
                                "</teammate-message>", agent=TEAMMATE)
    teammate.write_text("\n".join(lines) + "\n")
    return lead


def test_a_teammate_is_linked_to_its_call_by_the_name_its_sidecar_gives(tmp_path: Path) -> None:
    doc = analyze_path(_opens_with_the_leads_message(tmp_path)).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]] == [
        ("main", None, None, "completed"),
        (TEAMMATE, "main", "toolu_01Bench", "failed"),
    ]


def test_the_name_link_holds_when_worker_processes_read_the_lead(tmp_path: Path, monkeypatch) -> None:
    from spec_debug.session import parallel
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 700)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    doc = analyze_path(_opens_with_the_leads_message(tmp_path)).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"]) for a in doc["agents"]] == [
        ("main", None, None), (TEAMMATE, "main", "toolu_01Bench")]


def test_two_teammates_of_one_name_are_not_guessed(tmp_path: Path) -> None:
    lead = _opens_with_the_leads_message(tmp_path)
    lines = lead.read_text().splitlines()
    again = json.loads(lines[1])
    again["uuid"], again["message"]["content"][0]["id"] = "lead-9", "toolu_01Again"
    lead.write_text("\n".join([*lines, json.dumps(again)]) + "\n")
    doc = analyze_path(lead).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"]) for a in doc["agents"] if a["id"] == TEAMMATE] == [
        (TEAMMATE, None, None)]
