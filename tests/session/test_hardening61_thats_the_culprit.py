"""analyze: "That's the culprit!" confirms the open guess.

"That was the culprit." and "That is the culprit!" confirmed the newest open guess, but the
contraction "That's the culprit!" (and "It's the root cause.") was neither a guess nor an
outcome, so the guess the agent found true stayed an open question. "'s" now reads as "is":
it confirms the newest open guess; hedged ("Maybe that's the culprit?") it stays a guess.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses, pronoun_cause, stated_cause
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["That's the culprit!", "It's the root cause.", "Yep, that's the culprit."])
def test_a_stated_pronoun_cause(said):
    assert hypotheses(said) == [said]
    assert stated_cause(said) and pronoun_cause(said)


@pytest.mark.parametrize("said", ["That's the culprit!", "It's the root cause."])
def test_it_confirms_the_open_guess(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


def test_a_named_cause_with_the_contraction(tmp_path):
    said = "The d2t map's the culprit."
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "confirmed")]


def test_hedged_stays_a_guess():
    assert not stated_cause("Maybe that's the culprit?")
