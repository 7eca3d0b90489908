"""A Claude Code project folder archived with ``gzip -r`` makes each sub-agent's sidecar
``agent-<id>.meta.json`` an ``agent-<id>.meta.json.gz``. Its ``toolUseId`` is the only link a nested
sub-agent has (only the trunk's result names the agent it started: daaain/claude-code-log PR #218),
and it was read as missing: a sub-agent three deep whose spawner's file was read after its own
became a root agent (``parent`` null, ``spawned_by`` null) and its status was guessed, "failed",
though the agent that started it reported it completed. The compressed sidecar is now read."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "aaaa7373-0000-4000-8000-000000000052"
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


# ids chosen so that the files' order (a1, b2, c3) is the reverse of the spawning order
FILES = {
    f"{SID}.jsonl": [_line(0, "user", "why is the acceptance length 1.0 on gpu01?"),
                     _spawn(1, "toolu_A", "inspect the EAGLE-3 server on gpu01", None),
                     _answer(2, "toolu_A", None, "c3")],
    f"{SID}/subagents/agent-c3.jsonl": [_line(3, "user", "inspect the EAGLE-3 server on gpu01", "c3"),
                                        _spawn(4, "toolu_B", "read the drafter's config on gpu01", "c3"),
                                        _answer(5, "toolu_B", "c3", None)],
    f"{SID}/subagents/agent-b2.jsonl": [_line(6, "user", "read the drafter's config on gpu01", "b2"),
                                        _spawn(7, "toolu_C", "cat the drafter config", "b2"),
                                        _answer(8, "toolu_C", "b2", None)],
    f"{SID}/subagents/agent-a1.jsonl": [
        _line(9, "user", "cat the drafter config", "a1"),
        _line(10, "assistant", [{"type": "tool_use", "id": "toolu_cat", "name": "Bash", "input": {"command": CAT}}],
              "a1"),
        _line(11, "user", [{"type": "tool_result", "tool_use_id": "toolu_cat", "is_error": True,
                            "content": "Exit code 1\ncat: /models/eagle3-draft/config.json: No such file or directory"}],
              "a1")],
}
# Each sidecar, as CLI 2.1.x writes it
META = {"c3": "toolu_A", "b2": "toolu_B", "a1": "toolu_C"}


def _project(tmp_path: Path, packed: bool) -> Path:
    project = tmp_path / "-w"
    texts = {name: "".join(json.dumps(line) + "\n" for line in lines) for name, lines in FILES.items()}
    for agent, call in META.items():
        texts[f"{SID}/subagents/agent-{agent}.meta.json"] = json.dumps(
            {"agentType": "general-purpose", "description": "drafter", "toolUseId": call})
    for name, text in texts.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if packed:  # what `gzip -r` over the project leaves
            Path(f"{path}.gz").write_bytes(gzip.compress(text.encode()))
        else:
            path.write_text(text)
    return project


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
def test_a_nested_sub_agent_keeps_its_parent_in_a_gzipped_project(tmp_path: Path, packed: bool) -> None:
    doc = analyze_path(_project(tmp_path, packed)).to_json()
    # gzipped was: ("a1", None, None, "failed")
    assert sorted((a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]) == [
        ("a1", "b2", "toolu_C", "completed"), ("b2", "c3", "toolu_B", "completed"),
        ("c3", "main", "toolu_A", "completed"), ("main", None, None, "completed")]
    assert [(c["agent"], c["command"], c["exit_code"]) for c in doc["commands"]] == [("a1", CAT, 1)]
