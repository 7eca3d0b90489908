"""analyze: a confirmation that another subject is sound settles no guess it does not name.

"I confirmed the tokenizer loads fine", said while the agent suspects the hidden-state layer
order, names nothing of that guess: the tokenizer was checked on the way. It settled the newest
guess all the same, and the postmortem told the layer order as confirmed by a sentence about the
tokenizer. A confirmation that something it names loads, works, renders or is fine, sharing no
topic word with the guess, now settles none; a fix measured ("That fixed it, everything works
fine now") and a finding in other words ("Confirmed: d2t holds absolute ids") still do.
"""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import sound_subject
from tests.session.test_hardening48_stated_root_cause import _session

LAYERS = "I suspect the hidden-state layer order of the draft is wrong."


@pytest.mark.parametrize("said", [
    "I confirmed the tokenizer loads fine.",
    "Verified that the tokenizer works correctly.",
    "I confirmed the chat template renders correctly.",
    "Confirmed the HF config parses without errors.",
])
def test_another_subject_found_sound_settles_no_guess(tmp_path, said):
    a = _session(tmp_path, LAYERS, said)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open")]


def test_the_guess_is_settled_after_it(tmp_path):
    done = "Confirmed: the draft's layer order is reversed against the target's hidden states."
    a = _session(tmp_path, LAYERS, "I confirmed the tokenizer loads fine.", done)
    assert [(h.text, h.status, h.outcome) for h in a.hypotheses] == [(LAYERS, "confirmed", done)]


def test_a_fix_that_makes_everything_work_still_settles(tmp_path):
    a = _session(tmp_path, LAYERS, "That fixed it, everything works fine now: 96.8 tok/s.")
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed")]


def test_the_guessed_subject_found_sound_still_settles_it(tmp_path):
    # names the guess: what the outcome says of it is the answer
    a = _session(tmp_path, LAYERS, "I confirmed the draft layer order is correct.")
    assert [h.status for h in a.hypotheses] != ["open"]


def test_sound_subject_words():
    assert sound_subject("I confirmed the tokenizer loads fine.")
    assert not sound_subject("That fixed it, everything works fine now.")
    assert not sound_subject("Confirmed: d2t holds absolute ids, not offsets.")
    assert not sound_subject("That works, and the fix is fine.")
