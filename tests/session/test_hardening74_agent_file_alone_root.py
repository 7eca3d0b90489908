"""A Claude Code sub-agent's file read as a session of its own.

The CLI's cleanup deletes ``<id>.jsonl`` and leaves ``<id>/subagents/`` (anthropics/claude-code
#55407, #47717), and a person may name one ``agent-*.jsonl`` alone. No trunk is read, so
``agents[]`` has no "main" agent.

Before: each agent had ``"parent": "main"`` (an agent not in the list: the JSON contract is that
parent names one of ``agents[]`` or is null) and ``"file": null`` though its file was the one
read. Now the agent is a root (``"parent": null``) and its file is the session's file."""

from __future__ import annotations

import shutil
from pathlib import Path

from spec_debug.session import analyze_path

SUBAGENTS = (Path(__file__).parent / "data_h69_agent_poll" / "jsonl" / "-w"
             / "b2020800-0000-4000-8000-0000000000d4" / "subagents")
CUT_OFF = Path(__file__).parent / "data_tx" / "cut_off"


def _agents(path: Path):
    analysis = analyze_path(path)
    return [(a["session"], a["id"], a["parent"], a["file"]) for a in analysis.agents]


def test_subagents_folder_without_its_trunk(tmp_path: Path) -> None:
    folder = tmp_path / "subagents"
    shutil.copytree(SUBAGENTS, folder)
    got = _agents(folder)
    assert got == [(f"agent-{i}", i, None, str(folder / f"agent-{i}.jsonl"))
                   for i in ("a1111111111111111", "a2222222222222222", "a3333333333333333")]


def test_one_agent_file_named_alone() -> None:
    path = CUT_OFF / "aaaa0000-1111-4222-8333-444455556666" / "subagents" / "agent-b2.jsonl"
    assert _agents(path) == [("agent-b2", "b2", None, str(path))]


def test_with_its_trunk_the_agents_stay_under_main() -> None:
    parents = {a["id"]: a["parent"] for a in analyze_path(CUT_OFF).agents}
    assert parents["main"] is None
    assert {p for i, p in parents.items() if i != "main"} <= {"main"} | set(parents)
    assert "main" in parents.values()
