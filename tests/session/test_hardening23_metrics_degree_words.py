"""Acceptance readings said with "of only", "≈", or a verb before "AL".

"an acceptance length of only ~1.1 tokens" (a word of degree after "of"), "acceptance length ≈
1.02" (the approximately-equal sign as the separator) and "AL dropped to 1.05" (a verb of change
before the shorthand's number) gave no reading; they are how an agent reports a drafter that
accepts nothing. "AL version 13" stays none.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text, reading", [
    ("EAGLE3 gives an acceptance length of only ~1.1 tokens", ("accept_length", 1.1)),
    ("acceptance length ≈ 1.02 with the new draft", ("accept_length", 1.02)),
    ("acceptance rate ≈ 0.62", ("accept_rate", 0.62)),
    ("acceptance rate of about 62%", ("accept_rate", 62.0)),
    ("with EAGLE3 the AL dropped to 1.05 after the upgrade", ("accept_length", 1.05)),
])
def test_the_reading_is_read(text, reading):
    assert _readings(text) == [reading]


def test_al_words_that_are_no_reading():
    assert _readings("AL version 13") == []
    assert _readings("accept length is roughly 2 times the baseline") == []
