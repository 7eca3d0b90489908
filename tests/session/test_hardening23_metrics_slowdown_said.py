"""A share of the baseline's speed is a speedup: "0.85x the baseline throughput", "85% of baseline
throughput"; and "than without it" names the run without speculation ("30% faster than without it").

Only "N% faster than <baseline>" and factors before "slower" were read; the way an agent reports
the fault this tool exists for (speculation slower than no speculation) as a share gave no speedup.
"than without the fix" names another change and is none. ("15% slower than the baseline" is 0.85:
tests/session/test_hardening23_reviewmetrics_percent_slower.py.)
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text, value", [
    ("speculative decoding is 30% faster than without it", 1.3),
    ("EAGLE3 is 0.85x the baseline throughput", 0.85),
    ("EAGLE3 runs at 85% of baseline throughput at bs=64", 0.85),
    ("EAGLE3 gives 1.6x the vanilla decode speed", 1.6),
    ("a speedup of 0.85x the baseline throughput", 0.85),
])
def test_a_share_of_the_baseline(text, value):
    assert _speedups(text) == [value]


@pytest.mark.parametrize("text", [
    "EAGLE3 is 20% faster than without the fix",
    "fr-spec is 17.79% slower than eagle-2",
    "the draft takes 10% of baseline memory",
    "uses 2x the baseline memory",
])
def test_other_comparisons_are_none(text):
    assert _speedups(text) == []
