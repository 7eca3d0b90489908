"""analyze: "That rules it out" rules out the open guess.

Only "rules out"/"ruled out" side by side ruled out, so "The draft runs in bf16, which rules that
out." and "That rules it out." (the guess named by a pronoun between the words) settled nothing:
the guess stayed an open question. "Nothing rules it out yet" and "nothing rules out X" settle
none ("nothing" before the words negates them, as "not" does).
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

FP32 = "It might be the draft running in fp32."


@pytest.mark.parametrize("said", ["That rules it out.", "The draft runs in bf16, which rules that out.",
                                  "I ruled this out with a second run."])
def test_a_pronoun_between_rules_out(said):
    assert outcome(said) == ("ruled_out", said)


@pytest.mark.parametrize("said", ["Nothing rules it out yet.", "Nothing rules out the d2t map.",
                                  "That has not ruled it out.", "Let me see if this rules it out."])
def test_nothing_ruled_out(said):
    assert outcome(said) is None


def test_the_guess_is_ruled_out(tmp_path):
    back = "The draft runs in bf16, which rules that out."
    a = _session(tmp_path, FP32, back)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(FP32, "ruled_out", back)]
