"""A stop by hand reaches the foreground agents a stopped sub-agent was waiting on.

The person pressed Esc while main waited on sub-agent PLANNER, which waited on its own sub-agent
BENCH (foreground, nested: CLI 2.1.172 "Sub-agents can now spawn their own sub-agents"). The
trunk's Task result says PLANNER was interrupted; PLANNER's file ends with BENCH's call, never
answered, and BENCH's with a call of its own. BENCH read "running", as if the session had been
cut off while it ran; Esc stops every agent running in the foreground (anthropics/claude-code
issue #33434: "pressing **Escape** kills **all** running agents simultaneously"), so it was
stopped with its parent, at any depth. An unanswered agent under a parent that was not stopped
still runs; a background agent (its launch answered at once) is not touched."""

from __future__ import annotations

import json
from pathlib import Path

from test_hardening65_claude_background_agent_end import SID, _call, _line, _result

from spec_debug.session.analysis import analyze_path

PLANNER, BENCH, PROBE = "a1dd713c82c78b911", "a1dd713c82c78b912", "a1dd713c82c78b913"
STOPPED = "[Request interrupted by user for tool use]"


def _sidechain(lines: list[dict], agent: str) -> list[dict]:
    for line in lines:
        line.update(isSidechain=True, agentId=agent)
    return lines


def _write(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def _statuses(tmp_path: Path, planner_end: list[dict], probe: bool = False) -> list[tuple]:
    trunk = [
        _line(0, "user", message={"role": "user", "content": "bench EAGLE-3 on gpu01"}, origin={"kind": "human"}),
        _call(1, "toolu_P", "Task", {"description": "plan bench", "prompt": "plan the bench",
                                     "subagent_type": "general-purpose"}),
        *planner_end,
    ]
    planner = _sidechain([_line(2, "user", PLANNER, message={"role": "user", "content": "plan the bench"}),
                          _call(3, "toolu_B", "Task", {"description": "bench gpu01", "prompt": "bench gpu01",
                                                       "subagent_type": "general-purpose"})], PLANNER)
    bench = _sidechain([_line(4, "user", BENCH, message={"role": "user", "content": "bench gpu01"}),
                        _call(5, "toolu_C", "Bash", {"command": "ssh gpu01 python bench.py"})], BENCH)
    files = [(PLANNER, "toolu_P", planner), (BENCH, "toolu_B", bench)]
    if probe:  # BENCH waited on a sub-agent of its own too
        bench.append(_sidechain([_call(6, "toolu_Q", "Task", {"description": "probe", "prompt": "probe gpu01",
                                                               "subagent_type": "general-purpose"})], BENCH)[0])
        files.append((PROBE, "toolu_Q", _sidechain([
            _line(7, "user", PROBE, message={"role": "user", "content": "probe gpu01"}),
            _call(8, "toolu_R", "Bash", {"command": "ssh gpu01 nvidia-smi"})], PROBE)))
    project = tmp_path / "-w"
    _write(project / f"{SID}.jsonl", trunk)
    for agent, call, lines in files:
        _write(project / SID / "subagents" / f"agent-{agent}.jsonl", lines)
        (project / SID / "subagents" / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": agent, "toolUseId": call}))
    return [(a["id"], a["parent"], a["status"]) for a in analyze_path(project).to_json()["agents"]]


def _stopped(n: int) -> list[dict]:
    return [_line(n, "user", toolUseResult=f"Error: {STOPPED}", message={"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_P", "is_error": True, "content": STOPPED}]}),
            _line(n + 1, "user", message={"role": "user", "content": [{"type": "text", "text": STOPPED}]})]


def test_the_agent_a_stopped_sub_agent_waited_on_was_stopped_too(tmp_path):
    assert _statuses(tmp_path, _stopped(9)) == [
        ("main", None, "completed"), (PLANNER, "main", "interrupted"), (BENCH, PLANNER, "interrupted")]


def test_the_stop_reaches_every_depth(tmp_path):
    assert [s[2] for s in _statuses(tmp_path, _stopped(9), probe=True)] == [
        "completed", "interrupted", "interrupted", "interrupted"]


def test_under_a_parent_that_was_not_stopped_they_still_run(tmp_path):
    # the session cut off while PLANNER ran (no result for it): all of them still ran
    assert [s[2] for s in _statuses(tmp_path, [], probe=True)] == ["completed", "running", "running", "running"]
