"""analyze: "My first guess: the CUDA graph capture is broken" is a hypothesis.

Only "my guess is" / "my theory is" made a guess, so an agent's "My first guess: ...", "My best
guess is ...", "My working theory: ..." or "My suspicion is that ..." was none, and the
retraction after it ("Actually, I was wrong about the CUDA graph: the capture finished fine")
took back nothing the postmortem showed. A qualifier before guess/theory/suspicion, and a colon
after it, keep the guess; "My first guess was wrong" still opens none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session

FIRST = "My first guess: the CUDA graph capture is broken for the draft."


@pytest.mark.parametrize("said", [
    FIRST,
    "My best guess is the d2t map.",
    "My working theory: the draft runs in fp32.",
    "My suspicion is that the hidden-state layer ids differ.",
    "My guess: a stale torch compile cache.",
])
def test_a_qualified_guess_is_a_hypothesis(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", ["My first guess was wrong.", "My theory is wrong.", "My guesses were all wrong."])
def test_a_guess_taken_back_is_none(said):
    assert hypotheses(said) == []


def test_the_retraction_rules_it_out(tmp_path):
    back = "Actually, I was wrong about the CUDA graph: the capture finished fine."
    a = _session(tmp_path, FIRST, back)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(FIRST, "ruled_out", back)]
