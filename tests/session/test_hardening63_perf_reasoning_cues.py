"""The cue tests in front of the hypothesis and outcome patterns skip a scan where a letter of
the cue's words is in no word of the text ("b", "m", "x", "v", "'"), and find the words with a
common start in one scan for the start ("the issue" after "issue", "could well be" after
"could "). Each sentence below reaches its pattern through one of those paths only: the agent's
guess or outcome must still be read, and the near misses must still be none."""

import pytest

from spec_debug.session import reasoning

GUESSES = [
    # no "b" and no "m": "the issue", "the real culprit" are found after "issue", "culprit"
    "The issue is the d2t order.",
    "The real culprit is the d2t order.",
    # "m" only: "my guess"
    "My guess: the draft reads the wrong layers.",
    # "b": "could well be", "may also be", "possibly"
    "It could well be the d2t order.",
    "It may also be the d2t order.",
    "Possibly the d2t order is stale.",
    "I wonder if the d2t order is stale.",
    # opinions: "i " before "think", "reckon", "believe" (with its "b"); "seems" (its "m"); " point"
    "I think the d2t order is wrong.",
    "I reckon the d2t order is wrong.",
    "I believe the d2t order is wrong.",
    "It seems like the d2t order is wrong.",
    "Everything points to the d2t order.",
    "The data hints at the d2t order.",
]


@pytest.mark.parametrize("sentence", GUESSES)
def test_guess_read_through_its_cue(sentence):
    assert reasoning.hypotheses(sentence) == [sentence]
    assert reasoning.outcome(sentence) is None


OUTCOMES = [
    ("That works: 182 tok/s.", "confirmed"),  # "work" then "s"
    ("The fix worked.", "confirmed"),  # "work" then "ed"
    ("That did the trick.", "confirmed"),  # "did " then "the trick"
    ("That was it.", "confirmed"),
    ("That fixed it.", "confirmed"),  # "x"
    ("I verified that the fix works.", "confirmed"),  # "v"
    ("Confirmed: the d2t order was stale.", "confirmed"),  # "m"
    ("No change: still 94 tok/s.", "ruled_out"),  # "no " then "change"
    ("This isn't the issue.", "ruled_out"),  # "'"
    ("Not the d2t order.", "ruled_out"),  # "not " then "the"
    ("That rules it out.", "ruled_out"),  # " out"
    ("The d2t order checks out.", "ruled_out"),  # " out"
    ("The d2t order is OK.", "ruled_out"),  # " ok"
    ("The layer order is correct.", "ruled_out"),  # " correct"
    ("The d2t order was not to blame.", "ruled_out"),  # "m"
    ("I was wrong about the d2t order.", "ruled_out"),
]


@pytest.mark.parametrize("sentence,kind", OUTCOMES)
def test_outcome_read_through_its_cue(sentence, kind):
    assert reasoning.outcome(sentence) == (kind, sentence)


NEAR_MISSES = [
    "This issue is the d2t order.",  # "issue" after "this ", not "the "
    "We work on the d2t order.",  # "work" followed by neither "s" nor "ed"
    "It was itemized.",  # "was " then "itemized": the pattern's "was it" is there, nothing settled
    "The checkpoint is at the endpoint.",  # "point" without the space before it
    "Checking gpu01 again; throughput was 67.2 tok/s. the draft layer accept hidden state flag log",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_miss_reads_nothing(text):
    assert reasoning.hypotheses(text) == []
    assert reasoning.outcome(text) is None


@pytest.mark.parametrize("low,expected", [
    ("the issue is the order", True),
    ("the actual culprit is the order", True),
    ("this issue is the order", False),
    ("the  issue is the order", False),  # two spaces: no literal of the pattern
    ("it could well be the order", True),
    ("it could probably be the order", True),  # "probably"
    ("it could then be the order", False),
    ("my next hunch: the order", True),
    ("my next step: the order", False),
])
def test_hypothesis_cue(low, expected):
    assert reasoning._hypothesis_cue(low) is expected


@pytest.mark.parametrize("low,expected", [
    ("the fix works", True),
    ("we work on it", False),
    ("no effect on the order", True),
    ("no effects yet", True),  # "no effect" is in it: the pattern decides
    ("note the order", False),
    ("it wasn't the order", True),
    ("it wasn’t the order", False),  # a typographic apostrophe: not the pattern's
    ("that rules it out", True),
    ("that rules it", False),
])
def test_outcome_cue(low, expected):
    assert reasoning._outcome_cue(low) is expected
