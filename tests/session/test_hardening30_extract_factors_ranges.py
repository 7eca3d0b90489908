"""Round 30: a factor with no speed word, and a spaced range after a verb.

- "EAGLE-3 gives 1.8x over baseline here" (a factor set against the run without speculation, no
  "speedup"/"faster" beside it) was no reading; so was "EAGLE-3 gives 1.8x on MT-bench." (what the
  drafting method gave). A factor of another quantity stays none: "1.8x the memory", "2x more
  GPUs", "memory use is 1.8x over baseline", "EAGLE-3 got 4x H100", a question, a wish.
- "tests 40 - 55 tok/s" read 55: the counter's plural "tests" was taken for a label ("test 40"),
  where it is the verb and 40 - 55 the range the run spanned (47.5). "5 tests 40 - 55 tok/s",
  "tried tests ..." keep the label; "Across 5 trials: 40 - 55" (no unit) is still no reading."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, factor", [
    ("EAGLE-3 gives 1.8x over baseline here", 1.8),
    ("EAGLE-3 is 1.8x over the baseline", 1.8),
    ("EAGLE3 gets 1.8x over vanilla decoding", 1.8),
    ("MTP: 1.4x vs no-spec", 1.4),
    ("EAGLE-3 gives 1.8x on MT-bench.", 1.8),
    ("MTP achieved ~1.4x.", 1.4),
])
def test_a_factor_the_words_make_a_speedup(text, factor):
    assert _readings(text) == [("speedup", factor)]


@pytest.mark.parametrize("text", [
    "EAGLE-3 uses 1.8x the memory",
    "EAGLE-3 needs 2x more GPUs over baseline",
    "memory use is 1.8x over baseline with EAGLE-3",
    "EAGLE-3 is 1.8x over baseline memory",
    "EAGLE-3 got 4x H100",
    "Does EAGLE-3 give 1.8x?",
    "we hope to get 2x with EAGLE-3",
    "the new driver gives 1.8x",
    "EAGLE-3 gives 1.3x over EAGLE-2",
    "The paper says EAGLE-3 gives 3x over vanilla",
])
def test_a_factor_of_something_else_is_none(text):
    assert [r for r in _readings(text) if r[0] == "speedup"] == []


def test_a_speedup_word_s_factor_is_read_once():
    assert _readings("a 1.8x speedup over baseline") == [("speedup", 1.8)]


@pytest.mark.parametrize("text, readings", [
    ("tests 40 - 55 tok/s", [("throughput", 47.5)]),
    ("EAGLE-3 tests 40 - 55 tok/s", [("throughput", 47.5)]),
    ("The new build tests 40 - 55 tok/s on H100.", [("throughput", 47.5)]),
    ("5 tests 40 - 55 tok/s", [("throughput", 55.0)]),  # unchanged: a count, then a label
    ("tried tests 40 - 55 tok/s", [("throughput", 55.0)]),
    ("the tests 40 - 55 tok/s", [("throughput", 55.0)]),
    ("Across 5 trials: 40 - 55 tok/s", [("throughput", 47.5)]),
    ("Across 5 trials: 40 - 55", []),
])
def test_a_range_after_a_verb_is_a_range(text, readings):
    assert _readings(text) == readings
