"""analyze: a postmortem over a folder of sessions speaks of the sessions.

`spec-debug analyze` on a folder of four sessions said "The session started from this report"
(the first session's prompt) and "No coded finding was recognised in the session".
"""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "transcripts"


def test_a_folder_of_sessions_is_several_in_markdown_and_html():
    a = analyze_path(SAMPLES)
    assert len(a.sessions) == 4
    md = render_postmortem(a, "md")
    assert "- The first session started from this report [[msg 1:0]](#msg-1-0)" in md
    assert "No coded finding was recognised in the sessions." in md
    assert "in the session." not in md and "in the session " not in md
    html = render_postmortem(a, "html")
    assert "No coded finding was recognised in the sessions." in html


def test_one_session_is_the_session():
    md = render_postmortem(analyze_path(SAMPLES / "claude-code" / "edge_cases.jsonl"), "md")
    assert "- The session started from this report" in md
    assert "No coded finding was recognised in the session." in md
