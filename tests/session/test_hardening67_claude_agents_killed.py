"""Claude Code's ``agents_killed`` system line ends the background agents still running.

After it terminates the background agents still running (the person stopping them all), the
CLI writes ``{"type": "system", "subtype": "agents_killed", ...}`` with no more
fields ("Marker emitted after Claude Code terminates outstanding background agents", a
TypeScript model of the CLI's records; a Swift transcript reader's test "Stopping all
background agents interrupts the ones still running"). An agent launched before it that never
reported back was stopped, not still running; one that had already reported keeps its end."""

from __future__ import annotations

import json

from test_hardening65_claude_background_agent_end import AGENT, SID, TASKS, _analyze, _line, _statuses

from spec_debug.session.analysis import analyze_path


def _killed(n: int) -> dict:
    return _line(n, "system", subtype="agents_killed", level="info")


def _note(n: int, status: str) -> dict:
    note = (f"<task-notification>\n<task-id>{AGENT}</task-id>\n<tool-use-id>toolu_A</tool-use-id>\n"
            f"<task-type>local_agent</task-type>\n<output-file>{TASKS}{AGENT}.output</output-file>\n"
            f"<status>{status}</status>\n<summary>Agent \"bench gpu01\" {status}</summary>\n</task-notification>")
    return _line(n, "user", message={"role": "user", "content": note}, origin={"kind": "task-notification"})


def test_a_background_agent_killed_with_the_others_was_stopped(tmp_path):
    doc = _analyze(tmp_path, [_killed(6)])
    assert _statuses(doc) == [("main", None, None, "completed"), (AGENT, "main", "toolu_A", "interrupted")]


def test_without_the_marker_it_was_still_running(tmp_path):
    doc = _analyze(tmp_path, [_line(6, "system", subtype="turn_duration", durationMs=900)])
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "running")


def test_an_agent_that_had_reported_keeps_its_end(tmp_path):
    doc = _analyze(tmp_path, [_note(6, "completed"), _killed(7)])
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "completed")
    doc = _analyze(tmp_path / "failed", [_note(6, "failed"), _killed(7)])
    assert _statuses(doc)[1] == (AGENT, "main", "toolu_A", "failed")


def test_a_kill_before_the_launch_stops_nothing_launched_after(tmp_path):
    project = tmp_path / "-w"
    _analyze(tmp_path, [])
    trunk = project / f"{SID}.jsonl"
    lines = [json.loads(x) for x in trunk.read_text().splitlines()]
    lines.insert(1, _killed(0))  # the marker comes first, the launch after it
    trunk.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert _statuses(analyze_path(project).to_json())[1] == (AGENT, "main", "toolu_A", "running")
