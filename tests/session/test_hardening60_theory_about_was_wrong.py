"""analyze: "My theory about num_speculative_tokens was wrong" takes the theory back.

"My theory was wrong" and "I was wrong about X" took a guess back, but the agent's common "My
theory about num_speculative_tokens was wrong" / "My guess about the d2t map was wrong" (what
it was about between the words) settled nothing: the theory stayed an open question. Said
beside a confirmation of another guess ("Confirmed: ... so the batch size is the cause. My
theory about num_speculative_tokens was wrong."), the theory it names was kept open because it
shared one word ("batch") with the confirmation: now only the guesses the confirmation names
most are its own.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

THEORY = "My theory is that num_speculative_tokens=8 is too many for batch 64."
BATCH = "I suspect the batch size: at 64 concurrent requests, verification dominates."


@pytest.mark.parametrize("said", [
    "My theory about num_speculative_tokens was wrong.",
    "My guess about the d2t map was wrong.",
])
def test_a_guess_about_something_was_wrong_rules_out(said):
    assert outcome(said) == ("ruled_out", said)


def test_alone_it_rules_out_the_theory(tmp_path):
    back = "My theory about num_speculative_tokens was wrong."
    a = _session(tmp_path, THEORY, back)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(THEORY, "ruled_out", back)]


def test_beside_a_confirmation_of_another_guess_it_rules_out_the_theory(tmp_path):
    confirmed = "Confirmed: at concurrency 4 EAGLE-3 reaches 160 tok/s, so the batch size is the cause."
    back = "My theory about num_speculative_tokens was wrong."
    a = _session(tmp_path, THEORY, BATCH, confirmed + " " + back)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [
        (THEORY, "ruled_out", back), (BATCH, "confirmed", confirmed)]
