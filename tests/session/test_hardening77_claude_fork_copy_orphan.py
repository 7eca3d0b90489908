"""A forked Claude Code sub-agent (``Agent`` ``subagent_type: "fork"``) whose CLI wrote the parent's
history into the fork's own file first (the parent's lines, their uuids and times kept, then the
``<fork-boilerplate>`` brief with ``Your directive: ``), when its sidecar (``agent-<id>.meta.json``)
and its launch result (a session killed right after the call) are both gone.

Before: the prompt the file opens with is the person's, copied, which no call gave: the fork was a
root agent beside the trunk, no parent, no spawning call, and the copied history was read as the
fork's own (the person's prompt a second time, the parent's suspicion a second hypothesis). Now the
brief after the copy gives the directive it is linked by: the fork hangs under the call that gave
it, and the copy is the parent's, read once."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening75_claude_fork_replay import DIRECTIVE, FORK, OWN, PROMPT, SID, SUSPECT, TRUNK


def _write(tmp_path: Path, fork_lines: list[dict]) -> Path:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in TRUNK[:3]))  # killed at the call: no launch result
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    (folder / f"agent-{FORK}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in fork_lines))  # no sidecar
    return path


def _copied(line: dict) -> dict:
    return {**line, "isSidechain": True, "agentId": FORK}


def test_a_fork_that_copied_its_parents_history_hangs_under_its_call(tmp_path: Path) -> None:
    doc = analyze_path(_write(tmp_path, [*map(_copied, TRUNK[:3]), *OWN])).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]] == [
        ("main", None, None, "completed"), (FORK, "main", "toolu_01Fork", "running")]  # was a root, no call
    assert [(p["agent"], p["text"]) for p in doc["prompts"]] == [("main", PROMPT), (FORK, DIRECTIVE)]
    assert [(h["agent"], h["text"]) for h in doc["hypotheses"]] == [("main", SUSPECT)]  # was a second, the fork's
    assert [(c["agent"], c["command"]) for c in doc["commands"]] == [(FORK, "ssh gpu01 python check_d2t.py")]


def test_a_sub_agent_file_without_a_brief_stays_unlinked(tmp_path: Path) -> None:
    # no copy, no brief: its first prompt matches no call, as before
    own = [{**OWN[0], "message": {"role": "user", "content": "look at the draft's d2t map"}}, *OWN[1:]]
    doc = analyze_path(_write(tmp_path, own)).to_json()
    assert [(a["id"], a["parent"], a["spawned_by"]) for a in doc["agents"]] == [
        ("main", None, None), (FORK, None, None)]
