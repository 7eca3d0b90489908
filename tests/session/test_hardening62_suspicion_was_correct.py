"""analyze: "My suspicion was correct." confirms the open guess (it ruled it out).

Once "X is correct" cleared a named suspect (test_hardening62_correct_ok_rules_out), "My
suspicion was correct." read as a suspect named "my suspicion" cleared: the guess the agent
found true was shown as ruled out. A guess's own word (suspicion, guess, theory, hypothesis,
hunch) found correct or right now confirms the open guess ("The first guess was right: ...");
asked or doubted ("Was my guess right?", "not sure my guess was right") it settles nothing.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["My suspicion was correct.", "The first guess was right: the d2t map holds absolute ids.",
                                  "That hypothesis was correct."])
def test_the_guess_is_confirmed(tmp_path, said):
    assert outcome(said) == ("confirmed", said)
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


@pytest.mark.parametrize("said", ["Was my guess right?", "I am not sure my guess was right."])
def test_none(tmp_path, said):
    assert outcome(said) is None
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]
