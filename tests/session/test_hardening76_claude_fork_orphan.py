"""A forked Claude Code sub-agent (``Agent`` ``subagent_type: "fork"``, CLI 2.1.232+) opens its file
with its brief: the ``<fork-boilerplate>`` rules, then ``Your directive: `` and the prompt its call
gave (newer CLIs put a ``fork-context-ref`` line before it). When the fork's sidecar
(``agent-<id>.meta.json``, a copy that took the ``*.jsonl`` alone) and its launch result (a session
killed right after the call) are both gone, the file is tied to its call by the prompt it opens with.

Before, that prompt was the whole brief, which no call gave: the fork was a root agent beside the
trunk, no parent, no spawning call, its findings reaching no one. Now the brief's directive is the
prompt, and the fork hangs under the agent whose call gave it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "f0a2c000-0000-4000-8000-000000000076"
PROMPT = "the EAGLE-3 server on gpu01 accepts 1.0 tokens per step; find out why"


def _line(uuid: str, parent: str | None, kind: str, content, second: int, agent: str | None = None, **extra) -> dict:
    line = {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SID, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/srv/eagle", "version": "2.1.240",
            "timestamp": f"2026-08-20T10:00:{second:02d}.000Z", "message": {"role": kind, "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _brief(directive: str) -> str:
    """A fork's brief as the CLI writes it (claude_code._FORK_OPEN), its rules shortened."""
    return ("<fork-boilerplate>\nSTOP. READ THIS FIRST.\n\nYou are a forked worker process. You are NOT the main "
            "agent.\n\nRULES (non-negotiable):\n1. Do NOT spawn sub-agents; execute directly.\n"
            "2. Keep to your directive; report facts, not plans.\n</fork-boilerplate>\n\nYour directive: " + directive)


FORKS = {  # agent id -> (spawning call, directive, command it ran)
    "af0rk76a": ("toolu_01ForkA", "check the d2t map against the target tokenizer", "ssh gpu01 python check_d2t.py"),
    "af0rk76b": ("toolu_01ForkB", "compare the draft's hidden size with the target's config",
                 "ssh gpu01 cat /models/eagle3/config.json"),
}


def _write(tmp_path: Path, with_ref: bool) -> Path:
    # the trunk ends at the calls: the session was killed before their launch results were written
    calls = [{"type": "tool_use", "id": call, "name": "Agent",
              "input": {"subagent_type": "fork", "description": directive[:20], "prompt": directive}}
             for call, directive, _ in FORKS.values()]
    trunk = [_line("m0", None, "user", PROMPT, 0), _line("m1", "m0", "assistant", calls, 5)]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in trunk))
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    for n, (agent, (call, directive, command)) in enumerate(reversed(FORKS.items())):
        ref = [{"type": "fork-context-ref", "agentId": agent, "parentSessionId": SID, "parentLastUuid": "m1",
                "contextLength": 2}] if with_ref else []
        own = [
            _line(f"{agent}0", "m1", "user", [
                {"type": "tool_result", "tool_use_id": call,
                 "content": [{"type": "text", "text": "Fork started — processing in background"}]},
                {"type": "text", "text": _brief(directive)}], 6 + n, agent),
            _line(f"{agent}1", f"{agent}0", "assistant",
                  [{"type": "tool_use", "id": f"{call}Run", "name": "Bash", "input": {"command": command}}], 8 + n, agent),
            _line(f"{agent}2", f"{agent}1", "user", [{"type": "tool_result", "tool_use_id": f"{call}Run",
                                                      "is_error": True, "content": "Exit code 255\nssh: connect to "
                                                      "host gpu01 port 22: Connection refused"}], 10 + n, agent),
        ]
        (folder / f"agent-{agent}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [*ref, *own]))
    return path


def _tree(doc: dict) -> list[tuple]:
    return sorted((a["id"], a["parent"], a["spawned_by"]) for a in doc["agents"] if a["id"] != "main")


def test_a_fork_whose_sidecar_and_launch_result_are_gone_hangs_under_its_caller(tmp_path: Path) -> None:
    doc = analyze_path(_write(tmp_path, with_ref=True)).to_json()
    assert _tree(doc) == [("af0rk76a", "main", "toolu_01ForkA"), ("af0rk76b", "main", "toolu_01ForkB")]  # were roots
    assert sorted((p["agent"], p["text"]) for p in doc["prompts"]) == [
        ("af0rk76a", "check the d2t map against the target tokenizer"),
        ("af0rk76b", "compare the draft's hidden size with the target's config"), ("main", PROMPT)]


def test_an_older_fork_file_without_the_ref_line_too(tmp_path: Path) -> None:
    doc = analyze_path(_write(tmp_path, with_ref=False)).to_json()
    assert _tree(doc) == [("af0rk76a", "main", "toolu_01ForkA"), ("af0rk76b", "main", "toolu_01ForkB")]
    assert [a["status"] for a in doc["agents"] if a["id"] != "main"] == ["running", "running"]  # calls never answered
