"""An acceptance reading as people say it when it is the fault.

"the accept length is only 1.0" (no draft token accepted: the EAGLE failure to find) gave no
reading, as "is just 1.1", "stays at 0%" and "is stuck at 1.02" did not: only "is"/"was"
right before the number were read. "mean acceptance length (MAL) of 3.1" lost its number to the
abbreviation, and "acceptance rate: 70% -> 30%" its second reading to the arrow.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return [(m.name, m.value, m.unit) for m in extract_metrics(text, prose=True)]


@pytest.mark.parametrize("text, value", [
    ("the accept length is only 1.0, meaning no drafts accepted", 1.0),
    ("Accept length is just 1.1 with the new drafter", 1.1),
    ("acceptance length is stuck at 1.02", 1.02),
    ("the mean acceptance length stayed at about 1.3", 1.3),
    ("mean acceptance length (MAL) of 3.1", 3.1),
])
def test_an_accept_length_said_with_a_word_of_degree(text, value):
    assert _readings(text) == [("accept_length", value, "tokens")]


def test_an_accept_rate_said_with_a_word_of_degree():
    assert _readings("the draft acceptance rate stays at 0% after the fix") == [("accept_rate", 0.0, "%")]
    assert _readings("acceptance rate is only 0.05") == [("accept_rate", 0.05, "ratio")]


def test_an_arrow_after_a_reading_gives_the_next():
    assert _readings("acceptance rate: 70% -> 30%") == [("accept_rate", 70.0, "%"), ("accept_rate", 30.0, "%")]
    assert _readings("accept length 3.2 \u2192 1.1 after the upgrade") == \
        [("accept_length", 3.2, "tokens"), ("accept_length", 1.1, "tokens")]


def test_words_without_a_number_stay_none():
    assert _readings("the accept length is only a symptom here") == []
    assert _readings("acceptance rate is about to be logged") == []
