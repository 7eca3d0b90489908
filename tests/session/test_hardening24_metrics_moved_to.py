"""An accept length or rate said with its new value only, as an agent reports a change.

"Upgraded sglang to 0.5.4 and the accept length went to 3.2" gave no reading (only "went from
1.8 to 3.2" did, and "AL dropped to 1.05"); neither did "accept length dropped to 1.05" or "the
acceptance rate climbed to 71%". A factor or a difference after the verb stays none.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text,reading", [
    ("Upgraded sglang to 0.5.4 and the accept length went to 3.2", ("accept_length", 3.2, "tokens")),
    ("accept length dropped to 1.05 after the vocab change", ("accept_length", 1.05, "tokens")),
    ("acceptance length jumped to 3.4", ("accept_length", 3.4, "tokens")),
    ("the acceptance rate climbed to 71%", ("accept_rate", 71.0, "%")),
    ("acceptance rate went back up to 0.7", ("accept_rate", 0.7, "ratio")),
])
def test_a_new_value_after_a_change_verb_is_a_reading(text, reading):
    assert _readings(text) == [reading]


@pytest.mark.parametrize("text", ["accept length increased to 2x", "acceptance rate dropped to 3 points below eagle2"])
def test_a_factor_or_a_difference_after_the_verb_is_none(text):
    assert _readings(text) == []


def test_from_and_to_still_give_both():
    assert _readings("accept length went from 1.8 to 3.2") == [("accept_length", 1.8, "tokens"),
                                                               ("accept_length", 3.2, "tokens")]
