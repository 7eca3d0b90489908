"""analyze: "Still 94 tok/s, so it's not the CUDA graphs." rules out the open CUDA graph guess.

"Not the CUDA graphs." and "The CUDA graphs are fine." ruled out the open guess they name, but the
agent's most common wording, with "it's" ("It's not the CUDA graphs.", "..., so it's not the CUDA
graphs.", "; it is not the CUDA graph capture."), settled nothing: the suspect cleared stayed an
open question. Another subject ("so it is not the draft model") still clears no CUDA graph guess;
a condition, a question or a stock phrase ("It's not the first time.") clears nothing.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import outcome
from tests.session.test_hardening48_stated_root_cause import _session

GUESS = "My first hunch is the CUDA graph capture."


@pytest.mark.parametrize("said", ["It's not the CUDA graphs.", "Still 94 tok/s, so it's not the CUDA graphs.",
                                  "Same 94 tok/s; it is not the CUDA graph capture.", "Hmm, it was not the CUDA graph capture."])
def test_the_guess_is_ruled_out(tmp_path, said):
    assert outcome(said) == ("ruled_out", said)
    a = _session(tmp_path, GUESS, said)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(GUESS, "ruled_out", said)]


@pytest.mark.parametrize("said", ["If it's not the CUDA graphs, then what?", "It's not the first time.",
                                  "It's not the CUDA graphs, I think?", "It's not the end of the world."])
def test_none(said):
    assert outcome(said) is None


def test_another_subject_clears_no_guess(tmp_path):
    a = _session(tmp_path, GUESS, "Still slow, so it is not the draft model.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(GUESS, "open")]
