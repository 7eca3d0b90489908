"""reasoning: "This could be a big problem." is a worry, not a guess at a cause.

The "could/might/may be" branch of _HYPOTHESIS took any such sentence as a hypothesis, so an
agent's "This could be a big problem." (said of a slowdown it just measured) was listed as an
open hypothesis in the postmortem. A worry whose subject is only "this"/"that"/"it" and that says
nothing after "a (big) problem/issue/concern/risk" (bar "for production", "down the line", ...)
is now no hypothesis; one that names a suspect, gives a reason or a condition still is.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.reasoning import hypotheses
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text", [
    "This could be a big problem.",
    "That might be a serious issue for production.",
    "It could be a real problem down the line.",
    "Hmm, this may be a concern at scale.",
    "This could also be a risk!",
])
def test_a_worry_is_no_hypothesis(text):
    assert hypotheses(text) == []


@pytest.mark.parametrize("text", [
    "This could be a problem with the d2t map.",
    "The d2t map could be a big problem.",
    "This could be a big problem if the d2t map is stale.",
    "This could be an issue in the draft's fc layer.",
    "This could be a big problem because the aux layer ids are off.",
    "That could be a problem: the vocab map is stale.",
    "This could be the problem.",
])
def test_a_guess_worded_alike_is_still_one(text):
    assert hypotheses(text) == [text]


def test_the_guess_after_a_worry_is_kept(tmp_path):
    w = _Writer("62620000-0000-4000-8000-0000000000e1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 is slow on gpu01, find why.")
    w.bash("ssh gpu01 nvidia-smi", "NVIDIA-SMI 550.54.15")
    w.say("This could be a big problem. The d2t map might be stale.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert [h.text for h in analyze_path(path).hypotheses] == ["The d2t map might be stale."]
