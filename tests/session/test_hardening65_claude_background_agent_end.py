"""Claude Code 2.1.2xx runs sub-agents in the background by default: the ``Agent`` call is
answered at once, ``Async agent launched successfully.`` with ``toolUseResult {isAsync: true,
status: "async_launched", agentId, …}``, and how the agent ended comes later, in a
``<task-notification>`` (``<task-type>local_agent</task-type>``) or in a ``TaskOutput`` poll of it
(``<task_id>…</task_id><task_type>local_agent</task_type><status>completed|failed</status>
<output>…``). A launch with neither, in a session cut off while the agent ran, has no report: the
agent was still running, as an agent whose foreground call was never answered is, not
"completed" (anthropics/claude-code CHANGELOG.md: "Subagents now run in the background by
default"; the receipt and poll wordings as readers of the CLI give them)."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a7"
AGENT = "a10845c5ff9c7d4ec"
TASKS = f"/tmp/claude-1000/-w/{SID}/tasks/"


def _line(n: int, kind: str, agent: str | None = None, **fields) -> dict:
    line = {"type": kind, "uuid": f"{agent or 'm'}{n}", "parentUuid": None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:{n:02d}:00.000Z", "cwd": "/w", "isSidechain": agent is not None,
            "userType": "external", "entrypoint": "cli", "version": "2.1.240", **fields}
    if agent is not None:
        line["agentId"] = agent
    return line


def _call(n: int, call: str, name: str, args: dict) -> dict:
    return _line(n, "assistant", requestId=f"req_{n}", message={"id": f"msg_{n}", "type": "message", "role": "assistant",
                                                               "content": [{"type": "tool_use", "id": call, "name": name,
                                                                            "input": args}]})


def _result(n: int, call: str, text: str, tool_use_result) -> dict:
    return _line(n, "user", toolUseResult=tool_use_result, message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": call, "is_error": False, "content": [{"type": "text", "text": text}]}]})


def _analyze(tmp_path, tail: list[dict]) -> dict:
    trunk = [
        _line(0, "user", message={"role": "user", "content": "bench EAGLE-3 on gpu01"}, origin={"kind": "human"}),
        _call(1, "toolu_A", "Agent", {"description": "bench gpu01", "prompt": "run the EAGLE-3 bench on gpu01",
                                      "subagent_type": "general-purpose"}),
        _result(2, "toolu_A", f"Async agent launched successfully.\nagentId: {AGENT} (internal ID - do not mention to "
                              f"user. Use SendMessage with to: '{AGENT}' to continue this agent.)\noutput_file: "
                              f"{TASKS}{AGENT}.output",
                {"isAsync": True, "status": "async_launched", "agentId": AGENT, "description": "bench gpu01",
                 "prompt": "run the EAGLE-3 bench on gpu01", "outputFile": f"{TASKS}{AGENT}.output"}),
        *tail,
    ]
    sub = [
        _line(3, "user", AGENT, message={"role": "user", "content": "run the EAGLE-3 bench on gpu01"}),
        _line(4, "assistant", AGENT, message={"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_B", "name": "Bash", "input": {"command": "ssh gpu01 python bench.py"}}]}),
        _line(5, "user", AGENT, toolUseResult={"stdout": "accept len 1.02", "stderr": ""}, message={
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_B", "content": "accept len 1.02"}]}),
    ]
    project = tmp_path / "-w"
    (project / SID / "subagents").mkdir(parents=True)
    (project / f"{SID}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in trunk))
    (project / SID / "subagents" / f"agent-{AGENT}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in sub))
    (project / SID / "subagents" / f"agent-{AGENT}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "bench gpu01", "toolUseId": "toolu_A"}))
    return analyze_path(project).to_json()


def _statuses(doc: dict) -> list[tuple]:
    return [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]]


def test_a_background_agent_that_never_reported_back_was_still_running(tmp_path):
    doc = _analyze(tmp_path, [])
    assert _statuses(doc) == [("main", None, None, "completed"), (AGENT, "main", "toolu_A", "running")]


def test_its_notification_says_how_it_ended(tmp_path):
    note = (f"<task-notification>\n<task-id>{AGENT}</task-id>\n<tool-use-id>toolu_A</tool-use-id>\n"
            f"<task-type>local_agent</task-type>\n<output-file>{TASKS}{AGENT}.output</output-file>\n"
            "<status>completed</status>\n<summary>Agent \"bench gpu01\" finished</summary>\n</task-notification>")
    doc = _analyze(tmp_path, [_line(6, "user", message={"role": "user", "content": note},
                                    origin={"kind": "task-notification"})])
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "completed")


def _poll(status: str) -> list[dict]:
    text = (f"<retrieval_status>success</retrieval_status>\n\n<task_id>{AGENT}</task_id>\n\n<task_type>local_agent"
            f"</task_type>\n\n<status>{status}</status>\n\n<output>\naccept len 1.02 on gpu01\n</output>")
    return [_call(6, "toolu_P", "TaskOutput", {"task_id": AGENT, "block": True, "timeout": 600000}),
            _result(7, "toolu_P", text, {"retrieval_status": "success", "task": {
                "task_id": AGENT, "task_type": "local_agent", "status": status, "description": "bench gpu01",
                "output": "accept len 1.02 on gpu01"}})]


def test_a_poll_that_read_its_end_says_how_it_ended(tmp_path):
    doc = _analyze(tmp_path, _poll("completed"))
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "completed")
    main = doc["agents"][0]
    assert (main["tool_calls"], main["failed_calls"]) == (2, 0)


def test_a_poll_that_read_its_failure_fails_the_agent_not_the_poll(tmp_path):
    doc = _analyze(tmp_path, _poll("failed"))
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "failed")
    main = doc["agents"][0]
    assert (main["tool_calls"], main["failed_calls"]) == (2, 0)


def test_a_poll_while_it_runs_leaves_it_running(tmp_path):
    doc = _analyze(tmp_path, _poll("running"))
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "running")
