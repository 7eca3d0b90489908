"""An "acceptance rate" per hour, day or week is no drafter's rate.

Reading a bare rate above 1 with decimals as TensorRT-LLM's tokens a step made "The job acceptance
rate 1.8 per hour" and "Our PR acceptance rate is 2.5 per week" accept lengths of 1.8 and 2.5 (they
were ratios of 1.8 and 2.5 before): a count over time is neither.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _acceptance(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True) if m.name.startswith("accept")]


@pytest.mark.parametrize("text", [
    "The job acceptance rate 1.8 per hour at the queue is fine.",
    "Our PR acceptance rate is 2.5 per week.",
    "acceptance rate: 3.5/day on the review board",
])
def test_a_rate_over_time_is_none(text):
    assert _acceptance(text) == []


@pytest.mark.parametrize("text, expected", [
    ("acceptance rate 1.8", [("accept_length", 1.8)]),
    ("eagle acceptance rate 0.62 per step", [("accept_rate", 0.62)]),
])
def test_drafting_rates_are_read(text, expected):
    assert _acceptance(text) == expected
