"""A Claude Code session copied without its sub-agents' sidecars (``*.jsonl`` alone: ``scp
'*.jsonl'``, a tar of the transcripts): a nested sub-agent's only link to the call that started it
is its prompt, the first line of its file (only the trunk's result names its agent). The files
nothing else linked were tried once each, in the order of their names: a sub-agent three deep
whose file sorted before its spawner's was tried before that spawner's file, and so its call,
had been read, and became a root agent (``parent`` and ``spawned_by`` null), its status guessed
("failed") though its spawner reported it completed. Such a file now waits until the others are
read; one whose prompt no spawn gave is still a root agent, as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "aaaa7373-0000-4000-8000-000000000063"
CAT = "ssh gpu01 cat /models/eagle3-draft/config.json"


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> dict:
    line = {"parentUuid": None, "isSidechain": agent is not None, "userType": "external", "cwd": "/w",
            "sessionId": SID, "version": "2.1.150", "type": kind, "uuid": f"{agent or 'u'}-{n}",
            "timestamp": f"2026-05-20T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _spawn(n: int, call: str, prompt: str, agent: str | None) -> dict:
    return _line(n, "assistant", [{"type": "tool_use", "id": call, "name": "Agent", "input": {
        "description": prompt[:20], "prompt": prompt, "subagent_type": "general-purpose"}}], agent)


def _answer(n: int, call: str, agent: str | None, names: str | None) -> dict:
    result = {"status": "completed", "content": [{"type": "text", "text": "vocab_size 32000"}]}
    if names is not None:
        result["agentId"] = names  # the trunk's result alone names the agent
    return _line(n, "user", [{"type": "tool_result", "tool_use_id": call,
                              "content": [{"type": "text", "text": "vocab_size 32000"}]}], agent, toolUseResult=result)


def _project(tmp_path: Path, stray: bool = False) -> Path:
    # ids chosen so that the files' order (a1, b2, c3) is the reverse of the spawning order
    files = {
        f"{SID}.jsonl": [_line(0, "user", "why is the acceptance length 1.0 on gpu01?"),
                         _spawn(1, "toolu_A", "inspect the EAGLE-3 server on gpu01", None),
                         _answer(2, "toolu_A", None, "c3")],
        "agent-c3.jsonl": [_line(3, "user", "inspect the EAGLE-3 server on gpu01", "c3"),
                           _spawn(4, "toolu_B", "read the drafter's config on gpu01", "c3"),
                           _answer(5, "toolu_B", "c3", None)],
        "agent-b2.jsonl": [_line(6, "user", "read the drafter's config on gpu01", "b2"),
                           _spawn(7, "toolu_C", "cat the drafter config", "b2"),
                           _answer(8, "toolu_C", "b2", None)],
        "agent-a1.jsonl": [
            _line(9, "user", "cat the drafter config", "a1"),
            _line(10, "assistant", [{"type": "tool_use", "id": "toolu_cat", "name": "Bash",
                                     "input": {"command": CAT}}], "a1"),
            _line(11, "user", [{"type": "tool_result", "tool_use_id": "toolu_cat", "is_error": True,
                                "content": "Exit code 1\ncat: /models/eagle3-draft/config.json: No such file"}], "a1")],
    }
    if stray:  # a file no call started (its prompt is no spawn's): a root agent, as before
        files["agent-a0.jsonl"] = [_line(12, "user", "summarize the logs", "a0"),
                                   _line(13, "assistant", [{"type": "text", "text": "nothing there"}], "a0")]
    project = tmp_path / "-w"
    for name, lines in files.items():
        path = project / name if name.startswith(SID) else project / SID / "subagents" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return project


def _agents(doc: dict) -> list[tuple]:
    return sorted((a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"])


def test_a_sub_agent_three_deep_is_linked_whatever_its_file_s_name(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path)).to_json()
    # was ("a1", None, None, "failed")
    assert _agents(doc) == [("a1", "b2", "toolu_C", "completed"), ("b2", "c3", "toolu_B", "completed"),
                            ("c3", "main", "toolu_A", "completed"), ("main", None, None, "completed")]
    assert [(c["agent"], c["command"], c["exit_code"]) for c in doc["commands"]] == [("a1", CAT, 1)]


def test_a_file_no_call_started_is_still_a_root_agent(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path, stray=True)).to_json()
    assert _agents(doc) == [("a0", None, None, "completed"), ("a1", "b2", "toolu_C", "completed"),
                            ("b2", "c3", "toolu_B", "completed"), ("c3", "main", "toolu_A", "completed"),
                            ("main", None, None, "completed")]
