"""analyze: a notes file the agent reads (Read NOTES.md) holds no measurement of this session.

A session asked to "summarize what we found" reads NOTES.md, written by an earlier session: its "95
tok/s vs baseline 140 tok/s" were recorded as readings printed by a command (source "output"), so
the postmortem told the throughput as measured in this session, and the traceback pasted into the
notes counted as this session's error, a failed call. A prose document read by a file tool
(Markdown, reStructuredText, AsciiDoc, Org) is now what a report is: its numbers are stated
(source "prose", as a prompt's or the agent's own), its errors quoted. A log read the same way
(Read server.log) is still the server's output: its Decode batch lines are measurements.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import _impact, render_postmortem
from tests.session.incident_story import _Writer

NOTES = """# EAGLE-3 slowdown on gpu01 - notes

## Summary
- EAGLE-3: 95 tok/s vs baseline 140 tok/s (0.68x).
- Accept length 1.0.
- Earlier crash:
  torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
"""
LOG = ("[2026-03-02 08:00:01] Decode batch. #running-req: 1, #token: 412, token usage: 0.01, accept len: 1.02, "
       "gen throughput (token/s): 94.7, #queue-req: 0\n"
       "[2026-03-02 08:00:02] Decode batch. #running-req: 1, #token: 452, token usage: 0.01, accept len: 1.01, "
       "gen throughput (token/s): 95.3, #queue-req: 0\n")


def _analyze(tmp_path, *reads):
    w = _Writer("62620000-0000-4000-8000-0000000000a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Summarize what we found about the EAGLE-3 slowdown into a short report.")
    for path, text in reads:
        w.tool("Read", {"file_path": path}, text)
    w.say("Here is the summary.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("name", ["/root/NOTES.md", "/root/summary.markdown", "/root/docs/incident.rst"])
def test_the_notes_are_stated_not_measured(tmp_path, name):
    a = _analyze(tmp_path, (name, NOTES))
    assert [(m.name, m.value, m.source) for m in a.metrics] == [
        ("baseline_throughput", 140.0, "prose"), ("throughput", 95.0, "prose"), ("accept_length", 1.0, "prose")]
    assert a.errors == []
    assert a.stats["errors"] == 0
    assert "SD501" in [f.code for f in a.findings]  # stated, as a report in the prompt is


def test_a_log_read_the_same_way_is_measured(tmp_path):
    a = _analyze(tmp_path, ("/root/NOTES.md", NOTES), ("/root/server.log", LOG))
    assert [(m.name, m.source) for m in a.metrics if m.source == "output"] == [("throughput", "output"),
                                                                               ("accept_length", "output")]
    assert [m.value for m in a.metrics if m.source == "output"] == [95.0, 1.015]
    # the impact's readings are the log's alone (was: "went from 95 tok/s [msg 2]", the notes, "to 95 tok/s")
    row = _impact(a)["throughput"]
    assert (row["readings"], row["after_seq"]) == (1, 4)
    assert "Throughput was measured once: 95 tok/s [[msg 4]]" in render_postmortem(a, "md")


def test_a_log_with_the_notes_suffix_in_its_folder_is_still_a_log(tmp_path):
    a = _analyze(tmp_path, ("/root/notes.md.d/server.log", LOG))
    assert {m.source for m in a.metrics} == {"output"}
