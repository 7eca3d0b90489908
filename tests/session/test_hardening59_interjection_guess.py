"""analyze: a guess opening its sentence after an interjection is a hypothesis.

"Hmm, maybe the d2t table holds absolute ids rather than offsets." was no hypothesis: the
sentence-opening guess ("Maybe the d2t table ...") had to be the sentence's first word. With the
guess lost, the fix's "That fixed it: ... Root cause: d2t stored absolute ids." confirmed nothing,
and the stated root cause became a new open hypothesis, listed under Open questions of a session
whose cause was found and fixed. An interjection ("Hmm,", "OK so", "Well,", "Wait,") before the
guess now keeps it a guess; a plan so worded ("So maybe the next step is ...") stays none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "Hmm, maybe the d2t table holds absolute ids rather than offsets."


@pytest.mark.parametrize("said", [
    D2T,
    "OK so perhaps the draft config is stale.",
    "Well, probably the layer ids differ between training and serving.",
    "Wait, possibly a stale torch compile cache.",
])
def test_a_guess_after_an_interjection_is_a_hypothesis(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", [
    "So maybe the next step is to relaunch the server.",
    "Hmm, maybe the user wants the JSON output.",
])
def test_a_plan_after_an_interjection_is_none(said):
    assert hypotheses(said) == []


def test_the_fix_confirms_it_and_the_stated_cause_opens_nothing(tmp_path):
    fixed = "That fixed it: accept length 3.05 and 201.5 tok/s against the 140 tok/s baseline."
    a = _session(tmp_path, D2T, fixed + " Root cause: d2t stored absolute ids.")
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", fixed)]
