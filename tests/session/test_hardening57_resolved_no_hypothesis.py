"""A problem said to be fixed is no hypothesis: "The issue is resolved.", "The problem was fixed by
the relaunch.", "The root cause is now fixed." matched the guess pattern's "the issue is" and
"root cause" and each became an open hypothesis, listed under the postmortem's Open questions at
the end of a session whose guess was confirmed. "It is possible that we need to restart" plans,
and was one too. A guess that names what the problem is ("The problem is fixed-size buffers",
"the issue was fixed in sglang 0.5 but we run 0.4") stays one."""

from __future__ import annotations

import pytest

from spec_debug.session.postmortem import render_postmortem
from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session


@pytest.mark.parametrize("text", [
    "The issue is resolved.",
    "The problem is solved now.",
    "The problem was fixed by the relaunch.",
    "The root cause is now fixed.",
    "The issue is gone after the relaunch.",
    "It is possible that we need to restart the server.",
])
def test_an_outcome_told_is_no_hypothesis(text):
    assert hypotheses(text) == []


@pytest.mark.parametrize("text", [
    "The issue is that the d2t map is stale.",
    "The problem was the d2t map.",
    "The root cause is the d2t map.",
    "It is possible that the layers differ.",
    "The problem is fixed-size buffers in the draft.",
    "The issue was fixed in sglang 0.5 but we run 0.4.",
])
def test_guesses_stay(text):
    assert hypotheses(text) != []


def test_no_open_question_after_the_fix(tmp_path):
    suspect = "I suspect the vocab map (d2t/t2d) of the new draft."
    a = _session(tmp_path, suspect, "That fixed it: accept length 3.2 now.", "The problem was fixed by the relaunch.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(suspect, "confirmed")]
    md = render_postmortem(a, "md")
    assert "fixed by the relaunch" not in md.split("## Open questions", 1)[1].split("## Timeline", 1)[0]
