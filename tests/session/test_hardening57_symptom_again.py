"""analyze: the symptom confirmed again settles no guess at its cause.

"I confirmed the regression: 55 tok/s against the 90 tok/s baseline", said while the agent
suspects the layer order, confirmed the layer-order guess: the postmortem listed it under What
went well as a hypothesis confirmed, by a measurement of the symptom. "Confirmed the issue
reproduces on gpu02", "the slowdown is still there" and "throughput is still 55 tok/s" did the
same. Each now settles nothing it names nothing of; "That fixed it: 96.8 tok/s" still confirms
the newest guess (test_hardening53_confirmation_subject).
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import symptom_again
from tests.session.test_hardening48_stated_root_cause import _session

LAYERS = "I suspect the hidden-state layer order of the draft is wrong."


@pytest.mark.parametrize("said", [
    "I confirmed the regression: 55 tok/s against the 90 tok/s baseline.",
    "Confirmed the issue reproduces on gpu02.",
    "The benchmark confirms the slowdown is still there.",
    "Confirmed: throughput is still 55 tok/s.",
    "I verified that the problem persists after the restart.",
])
def test_the_symptom_again_settles_no_guess(tmp_path, said):
    a = _session(tmp_path, LAYERS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open")]


def test_a_fix_measured_still_confirms(tmp_path):
    a = _session(tmp_path, LAYERS, "That fixed it: 96.8 tok/s against the 90 tok/s baseline.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed")]


def test_naming_the_guess_still_settles(tmp_path):
    a = _session(tmp_path, LAYERS, "Confirmed: the layer order is still reversed in the draft config.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed")]


def test_symptom_again_words():
    assert symptom_again("I confirmed the regression: 55 tok/s.")
    assert not symptom_again("Confirmed: d2t holds absolute ids, not offsets.")
    assert not symptom_again("That fixed it: 96.8 tok/s now.")
