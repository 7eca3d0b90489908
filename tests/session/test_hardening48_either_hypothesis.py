"""analyze: ruling out one suspect of "either A or B" leaves the other open.

The on-call agent suspects "the draft checkpoint itself: either its hidden-state layers or its
vocab map (d2t/t2d)", checks the layers, says "That rules out the hidden-state layers", and a
sub-agent then confirms the vocab map. The postmortem listed the whole hypothesis as ruled out
under "What went wrong" (the suspect that was the root cause among it), and the confirmation
found no open hypothesis left to settle.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer


def _hypotheses(tmp_path, *texts):
    w = _Writer("48480000-0000-4000-8000-0000000000d1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 accept length is about 1.0 on gpu01.")
    for text in texts:
        w.bash("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}', text=text)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [(h.text, h.status, h.outcome) for h in analyze_path(path).hypotheses]


SUSPECT = ("Since the flags look right, I suspect the draft checkpoint itself: either its hidden-state layers "
           "or its vocab map (d2t/t2d).")


def test_one_alternative_ruled_out_then_the_other_confirmed(tmp_path):
    assert _hypotheses(tmp_path, SUSPECT, "The layers match [2, 16, 29]. That rules out the hidden-state layers.",
                       "Confirmed: the vocab map is wrong, d2t holds absolute ids.") == [
        (SUSPECT, "confirmed", "Confirmed: the vocab map is wrong, d2t holds absolute ids.")]


def test_one_alternative_ruled_out_leaves_it_open(tmp_path):
    assert _hypotheses(tmp_path, SUSPECT, "That rules out the hidden-state layers.") == [(SUSPECT, "open", "")]


def test_ruling_out_both_or_the_whole_suspect_still_settles_it(tmp_path):
    assert _hypotheses(tmp_path, SUSPECT, "That rules out both the hidden-state layers and the vocab map (d2t).") == [
        (SUSPECT, "ruled_out", "That rules out both the hidden-state layers and the vocab map (d2t).")]
    assert _hypotheses(tmp_path, "I suspect the hidden-state layers.", "That rules out the hidden-state layers.") == [
        ("I suspect the hidden-state layers.", "ruled_out", "That rules out the hidden-state layers.")]
