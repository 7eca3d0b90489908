"""A root cause's evidence says each text once, with every message that said it.

The vocab-map story (tests/data/transcripts_vocabmap): the sub-agent's last message ([msg 153])
and the main agent's Task result that hands it over ([msg 62]) are one text, and SD302's
evidence listed it twice: "[msg 62] Found it. d2t holds absolute target token ids, ..." and
"[msg 153] Found it. d2t holds absolute target token ids, ...", two bullets alike under the
root cause. It is one bullet now that links both messages; other lines keep their order."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts_vocabmap" / "7a1c9e42-5b3d-4f60-8c21-d0e4f9a2b6c3.jsonl"


def test_the_sub_agents_report_and_its_hand_over_are_one_bullet() -> None:
    analysis = analyze_path(SESSION)
    (sd302,) = [f for f in analysis.findings if f.code == "SD302"]
    assert sum(e.endswith(sd302.evidence[0].split("] ", 1)[1]) for e in sd302.evidence) == 2  # the analysis keeps both
    (cause,) = [r for r in postmortem_view(analysis)["root_causes"] if r["code"] == "SD302"]
    assert [e.split(" Found it.")[0] if "Found it." in e else e.split("] ")[0] + "]" for e in cause["evidence"]] == \
        ["[msg 62] [msg 153]", "[msg 63]", "[msg 121]"]
    md = render_postmortem(analysis, "md")
    assert md.count("Found it. d2t holds absolute target token ids") == 1
    assert "- [[msg 62]](#msg-62) [[msg 153]](#msg-153) Found it. d2t holds absolute target token ids" in md


def test_lines_alike_only_after_their_links_are_merged() -> None:
    from spec_debug.session.postmortem import _said_once

    assert _said_once(["[msg 2] 90 tok/s", "[msg 5] 95 tok/s", "[msg 9] 90 tok/s", "no link", "no link",
                       "[msg 11] "]) == ["[msg 2] [msg 9] 90 tok/s", "[msg 5] 95 tok/s", "no link", "no link", "[msg 11] "]
