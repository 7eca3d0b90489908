"""Outcomes in an agent's words: a negated "confirmed" or "ruled out" settles nothing."""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome


@pytest.mark.parametrize("text", [
    # before: each was read as ("confirmed", ...) or ("ruled_out", ...)
    "I haven't confirmed this yet, so let me dump the aux layer ids the server captures.",
    "The fix is not confirmed: accept length is still 1.0 after the restart.",
    "I have not verified that the draft's d2t is an offset table.",
    "The tokenizer is not ruled out yet, so let me diff the chat templates.",
    "Whether the +1 convention applies here is yet to be confirmed.",
])
def test_a_negated_outcome_settles_nothing(text):
    assert outcome(text) is None


def test_an_affirmed_outcome_after_a_negated_one_is_the_one_reported():
    text = "The tokenizer has not been ruled out. Confirmed: the served aux layers were [0, 28, 56], trained [1, 29, 57]."
    assert outcome(text) == ("confirmed", "Confirmed: the served aux layers were [0, 28, 56], trained [1, 29, 57].")


@pytest.mark.parametrize("text, kind", [
    ("That fixed it: accept length is back to 3.1.", "confirmed"),
    ("Setting --speculative-eagle-topk 1 didn't help.", "ruled_out"),
    ("So the draft dtype is not the cause.", "ruled_out"),
])
def test_plain_outcomes_still_count(text, kind):
    assert outcome(text)[0] == kind
