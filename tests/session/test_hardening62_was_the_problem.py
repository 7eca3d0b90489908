"""analyze: "So the d2t map was the problem all along." / "That is the problem." confirm the open guess.

"The d2t map was the culprit." and "That was the culprit." confirmed the open d2t guess, but the
agent's plainer "... was the problem (all along)", "... is the issue", "... was the bug" and "That
is the problem." settled nothing: the guess found true stayed an open question. The cause word
ending the sentence now reads as "the culprit" does; "That is the problem with this approach.",
a question and a hedge ("Maybe ...") do not confirm anything.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["So the d2t map was the problem all along.", "The d2t map is the issue.", "The d2t map was the bug.",
                                  "That is the problem."])
def test_confirms_the_open_guess(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


@pytest.mark.parametrize("said", ["That is the problem with this approach.", "What is the problem?", "I do not know what the problem is."])
def test_none(tmp_path, said):
    assert hypotheses(said) == []
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open")]


def test_a_hedge_stays_a_guess(tmp_path):
    said = "Maybe the d2t map is the problem."
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open"), (said, "open")]
