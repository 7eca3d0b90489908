"""A Claude Code sub-agent stopped before it wrote its report (its turn limit reached, its context
ran out, the CLI ended it) ends its transcript on a tool result, and the CLI tells the parent
``completed`` all the same: the Agent result's ``toolUseResult.status``, or a background agent's
``<task-notification>`` ``<status>completed`` (anthropics/claude-code issue #86471, 2.1.x:
"Background subagents report status: completed with empty/partial results", "an empty inline
result", "a mid-reasoning fragment ... 'Let me check the actual pixel dimensions ...'";
issue #80848: a Workflow sub-agent killed by ``maxTurns`` read as completed).

Before, such an agent read as ``completed`` and nothing said its work was cut short: the
postmortem listed no line for it. Now ``agents[].cut_off`` (a key added beside ``status``, which
keeps the CLI's word) is true for a sub-agent that made tool calls and wrote nothing after its
last one, false for one that did, and null where it cannot say (the main agent, a sub-agent whose
file was not read); the postmortem says which sub-agent ended on a tool result with no report."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

SID = "86471000-0000-4000-8000-000000000075"
AGENT = "a86471c"


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> str:
    line = {"type": kind, "uuid": f"{agent or 'm'}-{n}", "parentUuid": f"{agent or 'm'}-{n - 1}" if n else None,
            "isSidechain": agent is not None, "sessionId": SID, "userType": "external", "cwd": "/srv/eagle",
            "version": "2.1.224", "timestamp": f"2026-08-13T10:0{1 if agent else 0}:{n:02d}.000Z",
            "message": {"role": kind, "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return json.dumps(line)


def _bash(n: int, call: str, command: str, output: str, agent: str, said: str | None = None) -> list[str]:
    blocks = ([{"type": "text", "text": said}] if said else []) + [
        {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}]
    return [_line(n, "assistant", blocks, agent),
            _line(n + 1, "user", [{"type": "tool_result", "tool_use_id": call, "is_error": False, "content": output}],
                  agent, toolUseResult={"stdout": output, "stderr": "", "interrupted": False})]


def _session(tmp_path: Path, agent_tail: list[str], result_text: str) -> Path:
    trunk = [
        _line(0, "user", "why does the EAGLE-3 draft accept so few tokens on gpu01?"),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_01Acc", "name": "Agent", "input": {
            "description": "measure acceptance", "prompt": "measure the accept length on gpu01",
            "subagent_type": "general-purpose"}}]),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Acc",
                           "content": [{"type": "text", "text": result_text}]}],
              toolUseResult={"status": "completed", "agentId": AGENT, "totalToolUseCount": 2,
                             "content": [{"type": "text", "text": result_text}]}),
        _line(3, "assistant", [{"type": "text", "text": "The sub-agent is done."}]),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(trunk) + "\n")
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    lines = [_line(0, "user", "measure the accept length on gpu01", AGENT),
             *_bash(1, "toolu_01Smi", "ssh gpu01 nvidia-smi", "GPU 0: H100 80GB", AGENT),
             *agent_tail]
    (folder / f"agent-{AGENT}.jsonl").write_text("\n".join(lines) + "\n")
    (folder / f"agent-{AGENT}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "measure acceptance", "toolUseId": "toolu_01Acc"}))
    return path


def _agents(path: Path) -> dict[str, dict]:
    return {a["id"]: a for a in analyze_path(path).to_json()["agents"]}


CUT_LINE = (f"Sub-agent {AGENT} (spawned by toolu_01Acc) wrote no report after its last tool call (its "
            "transcript ends at [msg 8]), though the CLI says it completed: it was cut off (its turn limit, "
            "its context, a stop) before it finished.")


def test_an_agent_whose_file_ends_on_a_tool_result_was_cut_off(tmp_path: Path) -> None:
    # the mid-reasoning fragment of issue #86471: its last words came before its last call
    path = _session(tmp_path, _bash(3, "toolu_01Log", "ssh gpu01 tail -n 50 /tmp/sglang.log",
                                    "accept len: 1.02", AGENT, said="Let me check the server log ..."),
                    "Let me check the server log ...")
    agents = _agents(path)
    assert (agents[AGENT]["status"], agents[AGENT]["cut_off"]) == ("completed", True)
    assert agents["main"]["cut_off"] is None
    went_wrong = postmortem_view(analyze_path(path))["went_wrong"]
    assert CUT_LINE in went_wrong


def test_an_agent_that_wrote_its_report_was_not_cut_off(tmp_path: Path) -> None:
    path = _session(tmp_path, [_line(3, "assistant", [{"type": "text", "text": "gpu01 has an H100 80GB."}], AGENT)],
                    "gpu01 has an H100 80GB.")
    agents = _agents(path)
    assert (agents[AGENT]["status"], agents[AGENT]["cut_off"]) == ("completed", False)
    assert not any("wrote no report" in line for line in postmortem_view(analyze_path(path))["went_wrong"])


def test_an_agent_stopped_at_its_turn_limit_was_cut_off(tmp_path: Path) -> None:
    path = _session(tmp_path, [_line(3, "attachment", None, AGENT,
                                     attachment={"type": "max_turns_reached", "maxTurns": 1, "turnCount": 2})], "")
    agents = _agents(path)
    assert (agents[AGENT]["status"], agents[AGENT]["cut_off"]) == ("completed", True)


def test_an_agent_that_ended_on_its_structured_output_was_not_cut_off(tmp_path: Path) -> None:
    # an agent given a schema (claude -p --json-schema, a Workflow's agent(..., {schema})) reports
    # with the StructuredOutput call, and writes no text after it
    report = {"gpu": "H100 80GB", "accept_length": 1.02}
    path = _session(tmp_path, [
        _line(3, "assistant", [{"type": "tool_use", "id": "toolu_01Out", "name": "StructuredOutput",
                                "input": report}], AGENT),
        _line(4, "user", [{"type": "tool_result", "tool_use_id": "toolu_01Out", "is_error": False,
                           "content": "Structured output provided successfully"}], AGENT)], json.dumps(report))
    agents = _agents(path)
    assert (agents[AGENT]["status"], agents[AGENT]["cut_off"]) == ("completed", False)


def test_read_by_worker_processes_too(tmp_path: Path, monkeypatch) -> None:
    from spec_debug.session import parallel
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 700)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    (tmp_path / "cut").mkdir()
    (tmp_path / "done").mkdir()
    cut = _session(tmp_path / "cut", _bash(3, "toolu_01Log", "ssh gpu01 tail -n 50 /tmp/sglang.log",
                                           "accept len: 1.02", AGENT, said="Let me check the server log ..."), "")
    done = _session(tmp_path / "done", [_line(3, "assistant", [{"type": "text", "text": "gpu01 has an H100."}], AGENT)],
                    "gpu01 has an H100.")
    assert [_agents(p)[AGENT]["cut_off"] for p in (cut, done)] == [True, False]
