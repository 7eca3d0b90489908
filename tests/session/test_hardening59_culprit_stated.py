"""analyze: "Turns out the d2t map was the culprit" states the suspect found.

The agent suspects "the vocab map (d2t/t2d) of the new draft", then says "Turns out the d2t map was
the culprit." That was neither a hypothesis nor an outcome: the guess stayed an open question of
a session that had found it. A suspect named "the culprit", unhedged, is now a stated cause: it
confirms the open guess it names, and with none open it is the claim a later "That fixed it"
confirms; "Maybe the d2t map is the culprit" stays a guess.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

SUSPECT = "I suspect the vocab map (d2t/t2d) of the new draft."


@pytest.mark.parametrize("said", [
    "Turns out the d2t map was the culprit.",
    "The stale d2t map is the culprit.",
])
def test_the_culprit_named_confirms_the_guess(tmp_path, said):
    a = _session(tmp_path, SUSPECT, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(SUSPECT, "confirmed", said)]


def test_a_hedged_culprit_is_a_guess():
    said = "Maybe the d2t map is the culprit."
    assert hypotheses(said) == [said]


def test_a_culprit_stated_first_is_confirmed_by_the_fix(tmp_path):
    said = "Turns out the d2t map was the culprit."
    a = _session(tmp_path, said, "That fixed it: 96.8 tok/s.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(said, "confirmed")]


def test_another_culprit_leaves_the_guess_open(tmp_path):
    said = "Turns out the CUDA graph capture was the culprit."
    a = _session(tmp_path, SUSPECT, said)
    assert [(h.text, h.status) for h in a.hypotheses][0] == (SUSPECT, "open")
