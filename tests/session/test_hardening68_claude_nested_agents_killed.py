"""Claude Code's ``agents_killed`` line stops background agents at every depth.

A sub-agent can launch agents of its own in the background (anthropics/claude-code issue #74133:
"A subagent spawned via the `Agent` tool internally spawned its own child subagents ... The
children kept running in the background ... visible to the user in the Claude Code UI's
'Background tasks' panel"; issue #72711: nested background agents). Their launch results sit in
the sub-agent's file, read after the trunk whose ``agents_killed`` line says the CLI stopped every
background agent still running. An agent a sub-agent launched before that line, with no word on
its end, was stopped; one launched after it, or one that had reported, is not."""

from __future__ import annotations

import json
from pathlib import Path

from test_hardening65_claude_background_agent_end import SID, TASKS, _call, _line, _result

from spec_debug.session.analysis import analyze_path

PLANNER, BENCH, PROBE = "a1dd713c82c78b901", "a1dd713c82c78b902", "a1dd713c82c78b903"


def _launch(n: int, agent: str, call: str, child: str, what: str) -> list[dict]:
    lines = [_call(n, call, "Agent", {"description": what, "prompt": what, "subagent_type": "general-purpose"}),
             _result(n + 1, call, f"Async agent launched successfully.\nagentId: {child} (internal ID - do not "
                                  f"mention to user. Use SendMessage with to: '{child}' to continue this agent.)\n"
                                  f"output_file: {TASKS}{child}.output",
                     {"isAsync": True, "status": "async_launched", "agentId": child, "description": what,
                      "prompt": what, "outputFile": f"{TASKS}{child}.output"})]
    for line in lines:
        line.update(isSidechain=True, agentId=agent, uuid=f"{agent}{n}-{line['type']}")
    return lines


def _write(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def _analyze(tmp_path: Path, kill_at: int, probe_tail: list[dict] = ()) -> list[tuple]:
    """main -> PLANNER (foreground, answered at :09); PLANNER launches BENCH at :03-:04;
    BENCH launches PROBE at :06-:07; the trunk's kill line at ``kill_at`` minutes."""
    trunk = [
        _line(0, "user", message={"role": "user", "content": "bench EAGLE-3 on gpu01"}, origin={"kind": "human"}),
        _call(1, "toolu_P", "Agent", {"description": "plan bench", "prompt": "plan the bench",
                                      "subagent_type": "general-purpose"}),
        _result(9, "toolu_P", f"Planned; a bench agent runs.\nagentId: {PLANNER} (for resuming to continue this "
                              "agent's work if needed)",
                {"status": "completed", "agentId": PLANNER, "content": [{"type": "text", "text": "Planned"}]}),
        _line(kill_at, "system", subtype="agents_killed", level="info"),
    ]
    planner = [_line(2, "user", PLANNER, message={"role": "user", "content": "plan the bench"}),
               *_launch(3, PLANNER, "toolu_B", BENCH, "bench gpu01")]
    bench = [_line(5, "user", BENCH, message={"role": "user", "content": "bench gpu01"}),
             *_launch(6, BENCH, "toolu_Q", PROBE, "probe gpu01"), *probe_tail]
    probe = [_line(8, "user", PROBE, message={"role": "user", "content": "probe gpu01"})]
    project = tmp_path / "-w"
    subagents = project / SID / "subagents"
    subagents.mkdir(parents=True)
    _write(project / f"{SID}.jsonl", trunk)
    for agent, call, what, lines in ((PLANNER, "toolu_P", "plan bench", planner),
                                     (BENCH, "toolu_B", "bench gpu01", bench),
                                     (PROBE, "toolu_Q", "probe gpu01", probe)):
        _write(subagents / f"agent-{agent}.jsonl", lines)
        (subagents / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": what, "toolUseId": call}))
    doc = analyze_path(project).to_json()
    return [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]]


def test_background_agents_a_sub_agent_launched_are_stopped_by_the_kill(tmp_path):
    assert _analyze(tmp_path, kill_at=12) == [
        ("main", None, None, "completed"),
        (PLANNER, "main", "toolu_P", "completed"),
        (BENCH, PLANNER, "toolu_B", "interrupted"),
        (PROBE, BENCH, "toolu_Q", "interrupted"),
    ]


def test_an_agent_launched_after_the_kill_still_runs(tmp_path):
    # the kill at :05 came after BENCH's launch (:04), before PROBE's (:07)
    assert [s[3] for s in _analyze(tmp_path, kill_at=5)[2:]] == ["interrupted", "running"]


def test_a_nested_agent_that_had_reported_keeps_its_end(tmp_path):
    note = (f"<task-notification>\n<task-id>{PROBE}</task-id>\n<tool-use-id>toolu_Q</tool-use-id>\n"
            f"<task-type>local_agent</task-type>\n<output-file>{TASKS}{PROBE}.output</output-file>\n"
            "<status>completed</status>\n<summary>Agent \"probe gpu01\" finished</summary>\n</task-notification>")
    tail = [_line(8, "user", BENCH, message={"role": "user", "content": note}, origin={"kind": "task-notification"})]
    assert [s[3] for s in _analyze(tmp_path, kill_at=12, probe_tail=tail)[2:]] == ["interrupted", "completed"]


def test_without_a_kill_they_still_run(tmp_path):
    statuses = _analyze(tmp_path, kill_at=12)
    assert statuses[2][3] == "interrupted"
    project = tmp_path / "-w"
    trunk = project / f"{SID}.jsonl"
    trunk.write_text("".join(x + "\n" for x in trunk.read_text().splitlines() if "agents_killed" not in x))
    doc = analyze_path(project).to_json()
    assert [a["status"] for a in doc["agents"][2:]] == ["running", "running"]
