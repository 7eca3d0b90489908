"""A background agent (2.1.2xx: every agent, by default) is answered at once with a receipt, ``Async
agent launched successfully.\\nagentId: <id> (internal ID - do not mention to user. ...)``, and
``toolUseResult {status: "async_launched", agentId}``; how it ended comes later, in a
``<task-notification>``. Only the trunk's result carries ``agentId`` (daaain/claude-code-log PR #218:
a nested spawn's result has none; the receipt's text names it). A nested launch named no agent in
its toolUseResult, so its "async_launched" was dropped: in a session cut off while it ran, a nested
background agent read "completed", or "failed" when its calls so far had failed, where a trunk's
reads "running". It is now running until a note says how it ended, at any depth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "aaaa8080-0000-4000-8000-000000000001"


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> dict:
    line = {"parentUuid": None, "isSidechain": agent is not None, "userType": "external", "cwd": "/w",
            "sessionId": SID, "version": "2.1.230", "type": kind, "uuid": f"{agent or 'u'}-{n}",
            "timestamp": f"2026-05-01T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _receipt(agent: str) -> str:
    return (f"Async agent launched successfully.\nagentId: {agent} (internal ID - do not mention to user. Use "
            f"SendMessage with to: '{agent}' to continue this agent.)\nThe agent is working in the background. "
            "You will be notified automatically when it completes.")


def _spawn(call: str, prompt: str) -> list[dict]:
    return [{"type": "tool_use", "id": call, "name": "Agent", "input": {
        "description": prompt, "prompt": prompt, "subagent_type": "general-purpose"}}]


def _project(tmp_path: Path, nested_result: dict | None, note: str | None = None) -> Path:
    project = tmp_path / "-w"
    sub = project / SID / "subagents"
    sub.mkdir(parents=True)
    trunk = [_line(0, "user", "check gpu01"), _line(1, "assistant", _spawn("toolu_A", "look at gpu01")),
             _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_A", "content": _receipt("aaa1")}],
                   toolUseResult={"status": "async_launched", "agentId": "aaa1", "prompt": "look at gpu01"})]
    extra = {} if nested_result is None else {"toolUseResult": nested_result}
    first = [_line(3, "user", "look at gpu01", "aaa1"), _line(4, "assistant", _spawn("toolu_B", "run smi"), "aaa1"),
             _line(5, "user", [{"type": "tool_result", "tool_use_id": "toolu_B", "content": _receipt("bbb2")}],
                   "aaa1", **extra)]
    if note is not None:
        first.append(_line(9, "user", (f"<task-notification>\n<task-id>bbb2</task-id>\n<tool-use-id>toolu_B"
                                       f"</tool-use-id>\n<status>{note}</status>\n<summary>Agent \"run smi\" "
                                       f"{note}</summary>\n</task-notification>"), "aaa1"))
    second = [_line(6, "user", "run smi", "bbb2"),
              _line(7, "assistant", [{"type": "tool_use", "id": "toolu_C", "name": "Bash",
                                      "input": {"command": "ssh gpu01 nvidia-smi"}}], "bbb2"),
              _line(8, "user", [{"type": "tool_result", "tool_use_id": "toolu_C", "is_error": True,
                                 "content": "Exit code 9\nFailed to initialize NVML"}], "bbb2")]
    for name, rows in ((project / f"{SID}.jsonl", trunk), (sub / "agent-aaa1.jsonl", first),
                       (sub / "agent-bbb2.jsonl", second)):
        name.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for agent, call in (("aaa1", "toolu_A"), ("bbb2", "toolu_B")):
        (sub / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": agent, "toolUseId": call}))
    return project


def _statuses(project: Path) -> list[tuple[str, str | None, str]]:
    return [(a["id"], a["parent"], a["status"]) for a in analyze_path(project).to_json()["agents"]]


def test_a_nested_background_agent_cut_off_is_running(tmp_path: Path) -> None:
    nested_result = {"status": "async_launched", "prompt": "run smi"}  # a nested spawn's: no agentId
    assert _statuses(_project(tmp_path, nested_result)) == [
        ("main", None, "completed"), ("aaa1", "main", "running"), ("bbb2", "aaa1", "running")]  # was "failed"


@pytest.mark.parametrize("note", ["completed", "failed"])
def test_its_note_says_how_it_ended(tmp_path: Path, note: str) -> None:
    project = _project(tmp_path, {"status": "async_launched", "prompt": "run smi"}, note)
    assert _statuses(project)[2] == ("bbb2", "aaa1", note)


def test_a_foreground_nested_result_is_no_receipt(tmp_path: Path) -> None:
    # its report came back in the result: the agent ended; its only call failed, so it failed
    project = _project(tmp_path, {"status": "completed", "prompt": "run smi"})
    (project / SID / "subagents" / "agent-aaa1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        _line(3, "user", "look at gpu01", "aaa1"), _line(4, "assistant", _spawn("toolu_B", "run smi"), "aaa1"),
        _line(5, "user", [{"type": "tool_result", "tool_use_id": "toolu_B", "content": "NVML failed on gpu01"}],
              "aaa1")]))
    assert _statuses(project)[2] == ("bbb2", "aaa1", "failed")
