"""Background agents that end together: Claude Code flushes its queue of pending notifications
into one user line, a ``<task-notification>`` each (readers of its transcripts parse "every
notification in a message", and pin "one notification line carrying several blocks"). Each agent
ends as its own note says: the second was left "running" when only the first note was read, and
a first note with no status of its own (a monitor's event) took the next note's."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000c9"
FIRST, SECOND = "a10845c5ff9c7d4ec", "a20845c5ff9c7d4ed"
CALLS = {FIRST: "toolu_A", SECOND: "toolu_B"}


def _line(n: int, kind: str, agent: str | None = None, **fields) -> dict:
    line = {"type": kind, "uuid": f"{agent or 'm'}{n}", "parentUuid": None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:{n:02d}:00.000Z", "cwd": "/w", "isSidechain": agent is not None,
            "userType": "external", "entrypoint": "cli", "version": "2.1.240", **fields}
    if agent is not None:
        line["agentId"] = agent
    return line


def _note(task: str, status: str | None, summary: str, result: str = "") -> str:
    return (f"<task-notification>\n<task-id>{task}</task-id>\n"
            + (f"<tool-use-id>{CALLS[task]}</tool-use-id>\n<task-type>local_agent</task-type>\n" if task in CALLS else "")
            + (f"<status>{status}</status>\n" if status else "") + f"<summary>{summary}</summary>\n"
            + (f"<result>{result}</result>\n" if result else "") + "</task-notification>")


def _analyze(tmp_path, notes: list[str]) -> list[tuple]:
    trunk = [_line(0, "user", message={"role": "user", "content": "bench EAGLE-3 on gpu01 and gpu02"},
                   origin={"kind": "human"})]
    n = 1
    for agent, call in CALLS.items():
        trunk.append(_line(n, "assistant", requestId=f"req_{n}", message={
            "id": f"msg_{n}", "type": "message", "role": "assistant", "content": [
                {"type": "tool_use", "id": call, "name": "Agent",
                 "input": {"description": f"bench {agent}", "prompt": f"bench on {agent}",
                           "subagent_type": "general-purpose"}}]}))
        trunk.append(_line(n + 1, "user", toolUseResult={"isAsync": True, "status": "async_launched", "agentId": agent},
                           message={"role": "user", "content": [
                               {"type": "tool_result", "tool_use_id": call, "is_error": False,
                                "content": [{"type": "text", "text": f"Async agent launched successfully.\n"
                                                                     f"agentId: {agent}"}]}]}))
        n += 2
    trunk.append(_line(n, "user", message={"role": "user", "content": "\n".join(notes)},
                       origin={"kind": "task-notification"}))
    project = tmp_path / "-w"
    (project / SID / "subagents").mkdir(parents=True)
    (project / f"{SID}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in trunk))
    for agent, call in CALLS.items():
        sub = [_line(20, "user", agent, message={"role": "user", "content": f"bench on {agent}"}),
               _line(21, "assistant", agent, message={"role": "assistant", "content": [
                   {"type": "text", "text": "accept len 1.02"}]})]
        (project / SID / "subagents" / f"agent-{agent}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in sub))
        (project / SID / "subagents" / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": f"bench {agent}", "toolUseId": call}))
    doc = analyze_path(project).to_json()
    return [(a["id"], a["spawned_by"], a["status"]) for a in doc["agents"]]


def test_two_agents_that_ended_together_each_end_as_their_note_says(tmp_path):
    agents = _analyze(tmp_path, [_note(FIRST, "completed", 'Agent "bench" completed'),
                                 _note(SECOND, "failed", 'Agent "bench" failed')])
    assert agents[1:] == [(FIRST, "toolu_A", "completed"), (SECOND, "toolu_B", "failed")]


def test_the_second_note_is_read_after_a_long_report_in_the_first(tmp_path):
    report = "accept len 1.02 on gpu01\n" * 800  # ~20,000 characters of the first agent's report
    agents = _analyze(tmp_path, [_note(FIRST, "completed", 'Agent "bench" completed', report),
                                 _note(SECOND, "killed", 'Agent "bench" was stopped by user')])
    assert agents[1:] == [(FIRST, "toolu_A", "completed"), (SECOND, "toolu_B", "interrupted")]


def test_a_first_note_with_no_status_lends_none_to_its_task(tmp_path):
    agents = _analyze(tmp_path, [_note("b2c3d4e", None, "Monitor event"),
                                 _note(SECOND, "failed", 'Agent "bench" failed')])
    assert agents[1:] == [(FIRST, "toolu_A", "running"), (SECOND, "toolu_B", "failed")]


def test_one_note_alone_still_ends_its_agent(tmp_path):
    agents = _analyze(tmp_path, [_note(SECOND, "completed", 'Agent "bench" completed')])
    assert agents[1:] == [(FIRST, "toolu_A", "running"), (SECOND, "toolu_B", "completed")]
