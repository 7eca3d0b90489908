"""postmortem: a finding has no time of its own, and the timeline gave it the last time its agent
had before it. A finding said in a sub-agent's report (SD302, the Agent call's result at 09:21)
took the parent's time from before the spawn (09:16), so the timeline put the root cause before
the sub-agent that found it had started. It now takes the time of the next message of its agent
(the reply seconds after the result) when there is one."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.instants import instant
from spec_debug.session.postmortem import postmortem_view

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts_vocabmap" / \
    "7a1c9e42-5b3d-4f60-8c21-d0e4f9a2b6c3.jsonl"


def test_a_finding_from_a_sub_agents_report_is_after_the_sub_agent_started():
    rows = postmortem_view(analyze_path(SESSION))["timeline"]
    finding = next(r for r in rows if r["kind"] == "finding" and r["text"].startswith("SD302"))
    started = next(r for r in rows if r["kind"] == "phase" and r["agent"] != "main")
    # the report came back at 09:21:44 and the parent answered it at 09:21:50 [msg 63]
    assert finding["seq"] == 62 and finding["timestamp"] == "2026-11-20T09:21:50.000Z", finding  # was 09:16:37
    assert instant(finding["timestamp"]) > instant(started["timestamp"])
    assert rows.index(finding) > rows.index(started)
