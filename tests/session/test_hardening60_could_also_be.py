"""analyze: "It could also be the vocab mapping" is a guess.

An agent's second guess is most often worded "It could also be X" or "Could well be X": the
guess pattern (and its cheap cue test) only knew "could be", so the second guess was lost; the
fix after it then confirmed nothing it named, and the postmortem showed no suspect found. Now
"could/might/may also be" and "... well be" guess as "could be" does, with the same exceptions
("could also be worth checking", "could also be loaded by vLLM", "may also be slow").
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses
from tests.session.test_hardening48_stated_root_cause import _session


@pytest.mark.parametrize("said", [
    "It could also be the vocab mapping.",
    "Could also be the d2t map.",
    "The d2t map might also be stale.",
    "It could well be the hidden-state layer ids.",
    "The draft may also be reading the wrong layers.",
])
def test_an_also_guess_is_a_hypothesis(said):
    assert hypotheses(said) == [said]


@pytest.mark.parametrize("said", [
    "It could also be worth checking the logs.",
    "The checkpoint could also be loaded by vLLM.",
    "The build may also be slow.",
    "I will check whether the draft could also be loaded.",
])
def test_an_also_plan_is_none(said):
    assert hypotheses(said) == []


def test_the_fix_confirms_the_second_guess(tmp_path):
    first = "I suspect the CUDA graph capture."
    second = "It could also be the vocab mapping (d2t)."
    fixed = "That fixed it: after rewriting d2t, accept length is 3.1."
    a = _session(tmp_path, first, "Disabling CUDA graphs made no difference, so the CUDA graph capture is not the issue.",
                 second, fixed)
    assert [(h.text, h.status) for h in a.hypotheses] == [(first, "ruled_out"), (second, "confirmed")]
