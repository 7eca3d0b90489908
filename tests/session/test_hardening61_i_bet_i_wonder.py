"""analyze: "I bet it is the d2t map" and "I wonder if the layer ids are off by one" are guesses.

Neither was a hypothesis, so the fix or the "That was it." after them settled nothing shown.
Both now open a guess; "I wonder if we should rerun" and "I wonder whether it is worth ..." are
plans, and a bare question ("Could the layer ids be off?") stays none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session


@pytest.mark.parametrize("said", ["I bet it is the d2t map.", "I wonder if the layer ids are off by one.",
                                  "Hmm, I wonder whether the d2t table holds absolute ids."])
def test_guesses(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", ["I wonder if we should rerun the benchmark.", "I wonder whether it is worth a rerun.",
                                  "Could the layer ids be off?", "I wondered about lunch."])
def test_none(said):
    assert hypotheses(said) == []


def test_the_guess_is_confirmed(tmp_path):
    guess = "I wonder if the layer ids are off by one."
    a = _session(tmp_path, guess, "That was it.")
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(guess, "confirmed", "That was it.")]
