"""A background agent stopped by hand was stopped, not failed.

Claude Code says so in the agent's ``<task-notification>``: ``<status>killed</status>
<summary>Agent "…" was stopped by user</summary>`` (stream-json: ``status: "stopped"``; a
``TaskOutput`` poll: ``<status>killed</status>``). Read as "failed", the postmortem said
"Sub-agent … failed" of an agent the person stopped, where a foreground agent stopped with Esc
"was stopped by hand"."""

from __future__ import annotations

import json

from test_hardening65_claude_background_agent_end import AGENT, TASKS, _analyze, _line, _poll, _statuses

from spec_debug.session.analysis import analyze_path
from spec_debug.session.postmortem import render_postmortem


def _note(status: str, summary: str) -> list[dict]:
    note = (f"<task-notification>\n<task-id>{AGENT}</task-id>\n<tool-use-id>toolu_A</tool-use-id>\n"
            f"<task-type>local_agent</task-type>\n<output-file>{TASKS}{AGENT}.output</output-file>\n"
            f"<status>{status}</status>\n<summary>{summary}</summary>\n</task-notification>")
    return [_line(6, "user", message={"role": "user", "content": note}, origin={"kind": "task-notification"})]


def test_a_background_agent_the_person_stopped_was_stopped_by_hand(tmp_path):
    doc = _analyze(tmp_path, _note("killed", 'Agent "bench gpu01" was stopped by user'))
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "interrupted")
    doc = _analyze(tmp_path / "other", _note("failed", 'Agent "bench gpu01" failed'))
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "failed")


def test_a_poll_that_read_its_stop_says_so(tmp_path):
    doc = _analyze(tmp_path, _poll("killed"))
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "interrupted")
    main = doc["agents"][0]
    assert (main["status"], main["tool_calls"], main["failed_calls"]) == ("completed", 2, 0)


def test_the_postmortem_says_it_was_stopped(tmp_path):
    _analyze(tmp_path, _note("killed", 'Agent "bench gpu01" was stopped by user'))
    text = render_postmortem(analyze_path(tmp_path / "-w"), "md")
    assert f"Sub-agent {AGENT} was stopped by hand (spawned by toolu_A)." in text
    assert f"Sub-agent {AGENT} failed" not in text
