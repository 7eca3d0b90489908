"""analyze: "It looks like the d2t map is wrong." and "This points to the d2t map." are guesses.

The agent's opinion of what is at fault, worded "I think/believe X is wrong", "It looks/seems like
X is wrong (stale, off by one, not being applied correctly)" or "This (the evidence, which) points
to X", was no hypothesis: the postmortem's reasoning lost the guess, and the confirmation after it
settled nothing. Those are guesses now when X is said to be at fault, or when what the evidence
points to is a thing; a plan ("I think we should rerun"), something sound ("It looks like the server
started", "... is fine") or a pointer to a place ("This points to the docs", "The symlink points to
the new checkpoint") is none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

GUESSES = ["I think the d2t map is wrong.", "I believe the layer ids are off by one.", "I think that the draft weights are corrupted.",
           "It looks like the d2t map is wrong.", "Looks like the aux layer ids are stale.",
           "It seems like the draft config is not being applied correctly.", "This points to the d2t map.",
           "So this points to a vocab mismatch.", "The evidence points to the CUDA graph capture.",
           "Acceptance is 1.0, which points to the hidden-state layout.",
           "Everything points to the d2t map."]


@pytest.mark.parametrize("said", GUESSES)
def test_a_guess(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", [
    "I think we should rerun the benchmark.", "I think the server is up now.", "It looks like the server started.",
    "It looks like the d2t map is fine.", "This points to the docs.", "The symlink points to the new checkpoint.",
    "I think the next step is to profile.", "I think it's worth checking the logs.", "It looks like we are out of disk.",
    "The link points to the README.", "It points to /models/draft.", "This points to the same conclusion.",
    "I think the issue is now fixed.", "I think the problem was solved by the relaunch.", "Looks like the build finished.",
    "I think this is the right file.", "It seems the tests pass.", "This hints at nothing.", "That points to something else.",
    "That pointed to line 42 of the script."])
def test_no_guess(said):
    assert hypotheses(said) == []


def test_in_text_order_with_other_guesses():
    text = "It looks like the d2t map is wrong. I suspect the layer ids as well."
    assert hypotheses(text) == ["It looks like the d2t map is wrong.", "I suspect the layer ids as well."]


def test_a_checkpoint_or_an_endpoint_points_nowhere():
    # ("checkpoint", "endpoints" hold "point": the words of the guess are " points ", " pointed ")
    text = "The checkpoint endpoints are up. Everything points to the d2t map."
    assert hypotheses(text) == ["Everything points to the d2t map."]


def test_the_session_settles_the_guess(tmp_path):
    guess = "It looks like the d2t map is wrong."
    said = "Confirmed: d2t holds absolute ids, not offsets."
    a = _session(tmp_path, guess, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(guess, "confirmed", said)]
