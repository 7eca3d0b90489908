"""Every public sample transcript in tests/data/transcripts/ (daaain/claude-code-log, MIT;
see the README there) analyzed as a user would: formats, skips, calls, errors, agents."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts"
SHOWCASE = DATA / "claude-code" / "minimal_showcase" / "55550000-0000-4000-8000-000000000001.jsonl"
ALL_FILES = sorted(p for p in DATA.rglob("*.jsonl"))


def test_the_samples_are_all_here():
    assert len(ALL_FILES) == 5 and (DATA / "README.md").is_file()
    assert "MIT" in (DATA / "README.md").read_text()


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name[:40])
def test_every_sample_renders_in_every_output(path):
    analysis = analyze_path(path)
    assert analysis.stats["events"] > 0
    doc = json.loads(json.dumps(analysis.to_json()))
    assert doc["format"] in ("claude-code", "codex")
    assert render_postmortem(analysis, "md").startswith("# Postmortem")
    assert "</html>" in render_postmortem(analysis, "html")


def test_representative_messages():
    a = analyze_path(DATA / "claude-code" / "representative_messages.jsonl")
    assert a.format == "claude-code"
    assert (a.stats["events"], a.stats["tool_calls"], a.stats["errors"], a.stats["lines_skipped"]) == (12, 2, 0, 0)
    assert [(c.seq, c.command, c.exit_code, c.is_error, c.host) for c in a.commands] == [
        (7, "python /tmp/decorator_example.py", 0, False, None)]
    assert [p.seq for p in a.prompts] == [0, 2, 6, 10]


def test_edge_cases_are_counted_not_fatal():
    a = analyze_path(DATA / "claude-code" / "edge_cases.jsonl")
    s = a.stats
    assert (s["lines"], s["non_object"], s["broken_json"], s["lines_skipped"]) == (19, 3, 0, 3)
    assert s["unknown_types"] == 3  # message "error", a line without type, a misspelt "contenst"
    assert [(e.seq, e.kind, e.message) for e in a.errors] == [
        (4, "tool_error", "Error: Tool execution failed with error: Command not found")]
    # slash-command markup and the local-command caveat are not prompts someone typed
    assert [p.seq for p in a.prompts] == [0, 2, 11, 17]


def test_showcase_subagent_and_the_missing_one(tmp_path):
    a = analyze_path(SHOWCASE)
    agents = {ag["id"]: ag for ag in a.agents}
    assert set(agents) == {"main", "showcol1", "showcol2"}
    assert (agents["showcol1"]["parent"], agents["showcol1"]["status"], agents["showcol1"]["events"]) == ("main", "completed", 2)
    assert (agents["showcol2"]["status"], agents["showcol2"]["events"]) == ("missing", 0)
    assert a.stats["missing_files"] == 1 and a.sessions[0]["missing_agent_files"] == ["agent-showcol2.jsonl"]
    # sub-agent messages continue the session's numbering after the trunk
    assert (agents["showcol1"]["first_seq"], agents["showcol1"]["last_seq"]) == (11, 12)


def test_showcase_with_the_upstream_sidecar(tmp_path):
    """Upstream ships agent-showcol1.meta.json (README notes); with it the type is known."""
    copy = tmp_path / "minimal_showcase"
    shutil.copytree(SHOWCASE.parent, copy)
    sub = copy / SHOWCASE.stem / "subagents"
    (sub / "agent-showcol1.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "Survey the web module", "toolUseId": "toolu_sc_showcol1"}))
    # a session folder as PATH means its sibling session file
    a = analyze_path(copy / SHOWCASE.stem)
    agent = next(ag for ag in a.agents if ag["id"] == "showcol1")
    assert (agent["type"], agent["spawned_by"]) == ("general-purpose", "toolu_sc_showcol1")


def test_codex_rollout():
    a = analyze_path(next(DATA.glob("codex/*.jsonl")))
    assert a.format == "codex"
    assert (a.stats["tool_calls"], a.stats["unknown_types"], a.stats["lines_skipped"]) == (3, 1, 0)
    assert [(c.seq, c.command) for c in a.commands] == [(5, "find . -maxdepth 1 -type f")]
    assert [p.text for p in a.prompts] == ["List the synthetic files."]


def test_a_directory_of_sessions():
    a = analyze_path(DATA)
    assert a.format == "mixed"
    assert sorted(s["id"] for s in a.sessions) == [
        "55550000-0000-4000-8000-000000000001", "edge_cases", "representative_messages",
        "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111"]
    assert a.stats["sessions"] == 4 and a.stats["non_object"] == 3
