"""A metric read once has no "after" in the postmortem's Impact table.

An OpenAI chat log whose one server-log read printed throughput and accept length once showed
`| throughput | 61.35 tok/s [msg 4] | 61.35 tok/s [msg 4] | 1 | gpu01 |`: a before and an after
that are one reading, which reads as "measured before and after, and nothing changed" to an
incident reviewer, while the Summary above says "Throughput was measured once". The after cell
now says so; a metric read twice keeps its pair."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"


def test_a_metric_read_once_has_no_after() -> None:
    analysis = analyze_path(DATA / "checkpoint-eagle3-accept.json")
    md = render_postmortem(analysis, "md")
    assert "- Throughput was measured once: 61.35 tok/s [[msg 4]](#msg-4)." in md
    assert "| throughput | 61.35 tok/s [[msg 4]](#msg-4) | — (measured once) | 1 | gpu01 |" in md, md
    assert "| accept_length | 1.02 tokens [[msg 4]](#msg-4) | — (measured once) | 1 | gpu01 |" in md, md
    html = render_postmortem(analysis, "html")
    assert ('<td>throughput</td><td>61.35 tok/s <a href="#msg-4">[msg 4]</a></td>'
            "<td>— (measured once)</td><td>1</td><td>gpu01</td>") in html, html


def test_a_metric_read_twice_keeps_its_before_and_after() -> None:
    analysis = analyze_path(DATA.parent / "transcripts_vocabmap" / "7a1c9e42-5b3d-4f60-8c21-d0e4f9a2b6c3.jsonl")
    md = render_postmortem(analysis, "md")
    assert "| throughput | 96.31 tok/s [[msg 11]](#msg-11) | 239.22 tok/s [[msg 107]](#msg-107) | 5 | gpu-h100-03 |" in md
    assert "measured once" not in md


def test_the_resolution_of_a_session_that_measured_once_says_so() -> None:
    """A Codex rollout that launched the server (OOM), then benchmarked it once: its Resolution
    read "No change in the session was followed by a rise in measured throughput.", as if
    changes had been measured and did nothing. It says the one reading now, with its link; a
    session with readings and no rise keeps that line (test_hardening46_pivots_baseline)."""
    analysis = analyze_path(DATA.parent / "transcripts_newest" /
                            "rollout-2026-11-03T09-00-00-019c3a10-0000-7000-8000-000000000001.jsonl")
    md = render_postmortem(analysis, "md")
    assert "## Resolution\n\n- Only one throughput reading was taken [[msg 11]](#msg-11), so no change was seen to raise it.\n" in md
    assert "followed by a rise" not in md
    html = render_postmortem(analysis, "html")
    assert ('<li>Only one throughput reading was taken <a href="#msg-11">[msg 11]</a>, so no change was seen to raise it.</li>'
            in html), html
    assert 'id="msg-11"' in html
