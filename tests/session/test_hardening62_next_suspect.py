"""analyze: "Next suspect: the aux layer ids." / "My main suspect is the d2t map." are guesses.

"suspect" as a noun after its label was no hypothesis ("I suspect ..." and "suspected that"
were), so a guess the agent named that way, and then confirmed, was missing from the JSON's
hypotheses and the postmortem's timeline. A suspect named after "next", "main", "prime" (...)
and a colon or "is"/"was" is now a guess; a label with nothing named ("Let me find the next
suspect.", "The next suspect is cleared.") is none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session


@pytest.mark.parametrize("said", ["Next suspect: the aux hidden-state layer ids.", "Main suspect: the CUDA graph capture.",
                                  "My next suspect is the d2t map.", "The prime suspect is the d2t map."])
def test_a_guess(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", ["Let me find the next suspect.", "The next suspect is cleared.", "The main suspect was ruled out.",
                                  "Next suspect, then.", "That is a suspect line in the log."])
def test_none(said):
    assert hypotheses(said) == []


def test_confirmed_in_the_session(tmp_path):
    guess = "Next suspect: the aux hidden-state layer ids."
    said = "Confirmed: the layer ids are off by one."
    a = _session(tmp_path, guess + " SGLang captures layers 2, 30, 58.", said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(guess, "confirmed", said)]
