"""A Claude Code sub-agent whose model request failed for good ends its transcript with the CLI's
``isApiErrorMessage`` line ("API Error: Connection closed mid-response. ..."), and the CLI reports
it to the parent as ``completed`` all the same, the error text as its answer: the Agent result's
``toolUseResult.status``, or a background agent's ``<task-notification>`` ``<status>completed``
(anthropics/claude-code issue #84155, CLI 2.1.220: "status says completed; the only hint of death
is that the summary happens to be the error text").

Before, such an agent read as ``completed``: its failure was read only when no status was given.
Now an agent whose last word is that error failed, whatever the CLI's status says; one that went on
after a retried error is completed, as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "84155000-0000-4000-8000-000000000074"
DIED = "API Error: Connection closed mid-response. The response above may be incomplete."


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> str:
    line = {"type": kind, "uuid": f"{agent or 'm'}-{n}", "parentUuid": f"{agent or 'm'}-{n - 1}" if n else None,
            "isSidechain": agent is not None, "sessionId": SID, "userType": "external", "cwd": "/srv/eagle",
            "version": "2.1.220", "timestamp": f"2026-08-05T10:0{1 if agent else 0}:{n:02d}.000Z",
            "message": {"role": kind, "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return json.dumps(line)


def _write(tmp_path: Path, trunk: list[str], agent: str, agent_lines: list[str]) -> Path:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(trunk) + "\n")
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    (folder / f"agent-{agent}.jsonl").write_text("\n".join(agent_lines) + "\n")
    (folder / f"agent-{agent}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "profile the drafter", "toolUseId": "toolu_01Prof"}))
    return path


def _agent_lines(agent: str, last: list[str]) -> list[str]:
    return [
        _line(0, "user", "profile the EAGLE-3 drafter step", agent),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_01Nsys", "name": "Bash",
                                "input": {"command": "nsys profile -o draft python bench_draft.py"}}], agent),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Nsys", "is_error": False,
                           "content": "Generated draft.nsys-rep"}], agent),
        *last,
    ]


def _died(agent: str, n: int = 3) -> str:
    return _line(n, "assistant", [{"type": "text", "text": DIED}], agent, isApiErrorMessage=True, error="unknown")


def _spawn(background: bool) -> str:
    return _line(1, "assistant", [{"type": "tool_use", "id": "toolu_01Prof", "name": "Agent", "input": {
        "description": "profile the drafter", "prompt": "profile the EAGLE-3 drafter step",
        "subagent_type": "general-purpose", "run_in_background": background}}])


def _status(path: Path, agent: str) -> str:
    return next(a["status"] for a in analyze_path(path).to_json()["agents"] if a["id"] == agent)


def test_a_foreground_agent_that_died_of_an_api_error_failed(tmp_path: Path) -> None:
    path = _write(tmp_path, [
        _line(0, "user", "why is the drafter slow?"),
        _spawn(False),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Prof", "content": [
            {"type": "text", "text": DIED}]}],
            toolUseResult={"status": "completed", "agentId": "a84155f", "content": [{"type": "text", "text": DIED}],
                           "totalToolUseCount": 1}),
    ], "a84155f", _agent_lines("a84155f", [_died("a84155f")]))
    assert _status(path, "a84155f") == "failed"


def test_a_background_agent_that_died_of_an_api_error_failed(tmp_path: Path) -> None:
    path = _write(tmp_path, [
        _line(0, "user", "why is the drafter slow?"),
        _spawn(True),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Prof", "content": [{
            "type": "text", "text": "Async agent launched successfully.\nagentId: a84155b (internal ID)"}]}],
            toolUseResult={"isAsync": True, "status": "async_launched", "agentId": "a84155b",
                           "description": "profile the drafter"}),
        _line(3, "user", f"<task-notification>\n<task-id>a84155b</task-id>\n<status>completed</status>\n"
                         f"<summary>{DIED}</summary>\n</task-notification>"),
    ], "a84155b", _agent_lines("a84155b", [_died("a84155b")]))
    assert _status(path, "a84155b") == "failed"


def test_an_agent_that_went_on_after_a_retried_error_completed(tmp_path: Path) -> None:
    path = _write(tmp_path, [
        _line(0, "user", "why is the drafter slow?"),
        _spawn(False),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Prof", "content": [
            {"type": "text", "text": "The draft step spends 61% in the lm_head GEMM."}]}],
            toolUseResult={"status": "completed", "agentId": "a84155c", "totalToolUseCount": 1}),
    ], "a84155c", _agent_lines("a84155c", [
        _died("a84155c"),
        _line(4, "assistant", [{"type": "text", "text": "The draft step spends 61% in the lm_head GEMM."}],
              "a84155c")]))
    assert _status(path, "a84155c") == "completed"


def test_an_agent_whose_context_overflowed_failed(tmp_path: Path) -> None:
    # The CLI's own words for a request the API refused as too long: no "API Error" in them
    overflowed = _line(3, "assistant", [{"type": "text", "text": "Prompt is too long"}], "a84155d",
                       isApiErrorMessage=True, error="invalid_request")
    path = _write(tmp_path, [
        _line(0, "user", "why is the drafter slow?"),
        _spawn(False),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Prof", "content": [
            {"type": "text", "text": "Prompt is too long"}]}],
            toolUseResult={"status": "completed", "agentId": "a84155d", "totalToolUseCount": 1}),
    ], "a84155d", _agent_lines("a84155d", [overflowed]))
    assert _status(path, "a84155d") == "failed"
