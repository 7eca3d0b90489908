"""analyze: "That's the real culprit." / "the actual problem is ..." read as their plain wordings.

"That was the culprit." confirmed the open guess, but "That's the real culprit." (and "That is
the real culprit!", "That was the actual culprit.") settled nothing: the cue test before the
patterns looked for "the culprit" only, so the guess the agent found true stayed open. "The real
culprit is the CUDA graph capture" was no guess at all (as "The culprit is ..." is), and "That's
not the real culprit." ruled nothing out. "real" and "actual" before the cause word now read as
the plain wording does, and are no topic word of a guess ("The actual problem is the d2t map"
after "I suspect the d2t map" is the same guess, not a second one).
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses, outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["That's the real culprit.", "That is the real culprit!", "That was the actual culprit."])
def test_the_real_culprit_confirms_the_open_guess(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


@pytest.mark.parametrize("said", ["That's not the real culprit.", "That isn't the actual culprit."])
def test_not_the_real_culprit_rules_it_out(tmp_path, said):
    assert outcome(said) == ("ruled_out", said)
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "ruled_out", said)]


def test_the_real_culprit_is_a_new_guess(tmp_path):
    said = "The real culprit is the CUDA graph capture."
    assert hypotheses(said) == [said]
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open"), (said, "open")]


def test_the_actual_problem_naming_the_open_guess_is_that_guess(tmp_path):
    a = _session(tmp_path, D2T, "The actual problem is the d2t map.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


@pytest.mark.parametrize("said", ["Let me find the real culprit.", "I need to figure out what the real problem is.",
                                  "The real test is the benchmark.", "That's a real problem for the cluster."])
def test_plans_and_other_real_words_stay_none(said):
    assert hypotheses(said) == [] and outcome(said) is None
