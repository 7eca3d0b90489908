"""_RULED_OUT tries its sentence-start branches (a suspect named and cleared) only where a
sentence or clause can start: the text's start, after "[.!?] ", after a newline, after "[,;] ".
Its matches must be those of the one alternation it stands for, at every start, near misses
included (a start at a search's own position, a start one character after the last match, "^"
only at the text's start, and the other branches' matches before or at the same place)."""

import re

import pytest

from spec_debug.session import reasoning

_PLAIN = re.compile(reasoning._RULED_OUT.pattern, re.I)

TEXTS = [
    "The d2t map is fine.",
    "Ok. The d2t map is fine. That rules it out.",
    "Still 94 tok/s, so it's not the CUDA graphs.",
    "Still 94 tok/s; it's not the CUDA graphs.",
    "x The d2t map is fine.",  # not at a sentence start: no head match
    "Tested.\nThe d2t map is fine; the layer ids were a red herring.",
    "The d2t map is fine. The layer ids checks out. no change",
    "that wasn't it. The d2t map is fine.",
    "Not the d2t map. Not the layer ids!",
    "The d2t map is fine.The layers are fine.",  # no space: the second is no sentence start
    "  The d2t map is fine.",
    "Nope, not the d2t map.",
    "It did not help. The draft is not to blame.",
    "I was wrong about the layers, it's not the d2t map.",
    "",
    "no difference",
    "rules out,\nthe d2t map is fine",
]


@pytest.mark.parametrize("text", TEXTS)
def test_matches_are_those_of_the_one_alternation(text):
    assert [m.span() for m in reasoning._RULED_OUT.finditer(text)] == [m.span() for m in _PLAIN.finditer(text)]
    got, want = reasoning._RULED_OUT.search(text), _PLAIN.search(text)
    assert (got and got.span()) == (want and want.span())


def test_a_head_match_where_a_tail_match_starts_wins():
    # At 0 both the head ("not the d2t map") and the tail ("not the issue" is not there, but "no
    # change" is) could start: the head's branches come first in the alternation.
    text = "Not the issue here. no change"
    assert [m.span() for m in reasoning._RULED_OUT.finditer(text)] == [m.span() for m in _PLAIN.finditer(text)]


@pytest.mark.parametrize("text, sentence", [
    ("Let me look at the logs again. Still 94 tok/s, so it's not the CUDA graphs.",
     "Still 94 tok/s, so it's not the CUDA graphs."),
    ("Good. The d2t map checks out.", "The d2t map checks out."),
    ("Rerun done.\nThe layer ids were a red herring.", "The layer ids were a red herring."),
])
def test_outcome_still_reads_a_named_suspect_cleared_mid_text(text, sentence):
    assert reasoning.outcome(text) == ("ruled_out", sentence) == _expected_outcome(text)


def _expected_outcome(text):
    # the same outcome the plain pattern gives (patched in for one call)
    saved = reasoning._RULED_OUT
    try:
        plain = _PLAIN
        reasoning._CUES[plain] = reasoning._CUES[saved]
        reasoning._RULED_OUT = plain
        return reasoning.outcome(text)
    finally:
        reasoning._RULED_OUT = saved
        reasoning._CUES.pop(_PLAIN, None)
