"""analyze: "So that is not it." takes the last guess back.

"That was it" confirmed the open guess, but its negation ("So that is not it.", "That's not
it.", "That wasn't it.") settled nothing, so a guess the agent dropped stayed an open question.
It now rules out the newest open guess; asked, supposed ("If that is not it, ...") or about
something else ("That's not its job") it settles none. The outcome cue keeps one scan for each
of "not the|it" and "n't the|it", as it had for "not the" and "n't the".
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["So that is not it.", "That's not it.", "That wasn't it."])
def test_it_rules_out(said):
    assert outcome(said) == ("ruled_out", said)


@pytest.mark.parametrize("said", ["That is not it, I think?", "If that is not it, I will check the layers.",
                                  "That's not its job.", "That is not items."])
def test_none(said):
    assert outcome(said) is None


def test_the_guess_is_ruled_out(tmp_path):
    back = "d2t holds offsets. So that is not it."
    a = _session(tmp_path, D2T, back)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", "So that is not it.")]
