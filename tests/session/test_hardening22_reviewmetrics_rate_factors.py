"""An acceptance rate said with a factor, a difference or a count after its number is no reading.

Review of ae1ebb5: the words of degree after "is" ("now", "about", "still", "roughly", "at") let
the rate's number be one of a comparison: "acceptance rate is now 5x higher" read a rate of 5,
"is still 3 points lower than eagle2" 3, "is roughly 10 times lower" 10, "is only 1 in 10" 1,
"was at 2 steps" 2, "is around 2.5 tokens per step" (a length) 2.5. "20 percent" is a percentage.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text", [
    "acceptance rate is now 5x higher",
    "acceptance rate is about 2x the baseline",
    "acceptance rate is still 3 points lower than eagle2",
    "acceptance rate is roughly 10 times lower",
    "acceptance rate is only 1 in 10",
    "acceptance rate was at 2 steps",
    "the acceptance rate is around 2.5 tokens per step",
])
def test_a_comparison_is_no_rate(text):
    assert [r for r in _readings(text) if r[0] == "accept_rate"] == []


def test_rates_said_with_degree_words_stay():
    assert _readings("acceptance rate stays at 0%") == [("accept_rate", 0.0, "%")]
    assert _readings("acceptance rate is just 20 percent") == [("accept_rate", 20.0, "%")]
    assert _readings("acceptance rate is about 0.35") == [("accept_rate", 0.35, "ratio")]
    assert _readings("acceptance rate: 70% -> 30%") == [("accept_rate", 30.0, "%"), ("accept_rate", 70.0, "%")]


@pytest.mark.parametrize("text", ["accept length is roughly 2 times the baseline",
                                  "accept length is now 2 times longer", "accept length is 2.5 points lower"])
def test_a_factor_is_no_accept_length(text):
    assert [r for r in _readings(text) if r[0] == "accept_length"] == []


def test_a_rate_over_some_runs_stays():
    assert _readings("acceptance rate is about 0.7 in 10 runs") == [("accept_rate", 0.7, "ratio")]
