"""A nested Claude Code sub-agent is tied to the call that started it only by its
``agent-<id>.meta.json`` ``toolUseId``: a nested spawn's result names no agent (daaain/
claude-code-log PR #218). A copy of the session that took the ``*.jsonl`` files alone, or a
sidecar cut short, left the sub-agent an orphan: no parent, no spawning call, so its failure
reached no one. The CLI opens the sub-agent's file with the prompt its call gave; that one
unlinked call is now its spawner."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "aaaa0000-0000-4000-8000-0000000000e3"


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> dict:
    line = {"type": kind, "uuid": f"{agent or 'main'}-{n}", "parentUuid": None, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/root/eagle", "sessionId": SESSION, "version": "2.1.173",
            "timestamp": f"2026-06-15T10:00:{n:02d}.000Z", "message": {"role": kind, "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _spawn(n: int, call_id: str, prompt: str, agent: str | None = None) -> dict:
    return _line(n, "assistant", [{"type": "tool_use", "id": call_id, "name": "Agent", "input": {
        "description": prompt[:12], "prompt": prompt, "subagent_type": "Explore"}}], agent)


def _done(n: int, call_id: str, agent: str | None = None, **extra) -> dict:
    return _line(n, "user", [{"type": "tool_result", "tool_use_id": call_id,
                              "content": [{"type": "text", "text": "done"}]}], agent,
                 toolUseResult={"status": "completed", **extra})


def _write(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _session(tmp_path: Path, nested_prompts: list[str], sidecar: str | None) -> Path:
    trunk = tmp_path / f"{SESSION}.jsonl"
    subagents = tmp_path / SESSION / "subagents"
    _write(trunk, [_line(0, "user", "Why is acceptance low on gpu01?"),
                   _spawn(1, "toolu_A", "check the drafter"), _done(2, "toolu_A", agentId="aaa111")])
    _write(subagents / "agent-aaa111.jsonl", [_line(3, "user", "check the drafter", "aaa111")] + [
        line for i, prompt in enumerate(nested_prompts)
        for line in (_spawn(4 + 2 * i, f"toolu_B{i}", prompt, "aaa111"), _done(5 + 2 * i, f"toolu_B{i}", "aaa111"))])
    (subagents / "agent-aaa111.meta.json").write_text(json.dumps({"agentType": "general-purpose",
                                                                  "toolUseId": "toolu_A"}))
    _write(subagents / "agent-bbb222.jsonl", [
        _line(20, "user", "read the drafter config on gpu01", "bbb222"),
        _line(21, "assistant", [{"type": "tool_use", "id": "s1", "name": "Bash",
                                 "input": {"command": "ssh gpu01 'cat /models/eagle3/config.json'"}}], "bbb222"),
        _line(22, "user", [{"type": "tool_result", "tool_use_id": "s1", "is_error": True,
                            "content": "Exit code 1\ncat: /models/eagle3/config.json: No such file or directory"}],
              "bbb222")])
    if sidecar is not None:
        (subagents / "agent-bbb222.meta.json").write_text(sidecar)
    return trunk


def _links(path: Path) -> list[tuple]:
    return [(a["id"], a["parent"], a["spawned_by"]) for a in analyze_path(path).agents]


def test_a_nested_agent_without_its_sidecar_is_linked_by_its_prompt(tmp_path: Path) -> None:
    path = _session(tmp_path, ["list /models on gpu01", "read the drafter config on gpu01"], None)
    assert _links(path) == [("main", None, None), ("aaa111", "main", "toolu_A"), ("bbb222", "aaa111", "toolu_B1")]
    bbb = next(a for a in analyze_path(path).agents if a["id"] == "bbb222")
    assert (bbb["type"], bbb["description"]) == ("Explore", "read the dra")


def test_a_damaged_sidecar_is_no_bar_either(tmp_path: Path) -> None:
    path = _session(tmp_path, ["read the drafter config on gpu01"], '{"agentType": "Explore", "toolUseId": ')
    assert _links(path)[-1] == ("bbb222", "aaa111", "toolu_B0")


def test_two_calls_with_the_same_prompt_link_neither(tmp_path: Path) -> None:
    path = _session(tmp_path, ["read the drafter config on gpu01"] * 2, None)
    assert _links(path)[-1] == ("bbb222", None, None)
