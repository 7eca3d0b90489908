"""analyze: "That was the culprit." confirms the open guess.

After "I suspect the d2t map." and a fix, the agent wrote "That was the culprit.": a cause stated
with no word of its own (a pronoun for the last guess) was taken for a bare heading naming
nothing, so it settled nothing and the guess stayed an open question. It now confirms the
newest open guess; "Maybe that is the culprit." stays a guess, and with no guess open it opens
none.
"""

from __future__ import annotations

import pytest

from tests.session.test_hardening48_stated_root_cause import _session

D2T = "I suspect the d2t map."


@pytest.mark.parametrize("said", ["That was the culprit.", "Yep, this is the root cause."])
def test_it_confirms_the_open_guess(tmp_path, said):
    a = _session(tmp_path, D2T, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(D2T, "confirmed", said)]


def test_a_hedged_one_stays_a_guess(tmp_path):
    a = _session(tmp_path, D2T, "Maybe that is the culprit.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(D2T, "open"), ("Maybe that is the culprit.", "open")]


def test_with_none_open_it_opens_none(tmp_path):
    a = _session(tmp_path, "That was the culprit.")
    assert a.hypotheses == []
