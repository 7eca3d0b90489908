"""The first number of a pair is a speed only when it is one.

"context 4096 vs 120 tok/s" gave two readings, 4096 tok/s and 120 tok/s: the pair rule lends
the second number's unit to the first ("131.5 vs 90.1 tok/s"), and 4096 was a context length.
A setting's name before the first number ("context", "batch", "max-model-len", "k") or a
power-of-two size far above the speed beside it is no speed. "EAGLE3 120 vs baseline 90 tok/s"
lost its 120: the baseline's word between "vs" and the number hid the pair.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text", [
    "context 4096 vs 120 tok/s",
    "With context 4096 vs 120 tok/s at 2048",
    "max-model-len 8192 vs 120 tok/s",
    "batch 32 vs 120 tok/s",
    "k 4 vs 120 tok/s",
    "4096 vs 120 tok/s",
])
def test_a_setting_before_vs_is_no_speed(text):
    assert _readings(text) == [("throughput", 120.0)]


def test_two_speeds_stay_a_pair():
    assert _readings("90 vs 120 tok/s") == [("throughput", 90.0), ("throughput", 120.0)]
    assert _readings("512 vs 480 tok/s") == [("throughput", 480.0), ("throughput", 512.0)]
    assert _readings("from 54 to 91 tok/s") == [("throughput", 54.0), ("throughput", 91.0)]


def test_a_pair_with_the_baseline_named_after_vs():
    assert _readings("EAGLE3 120 vs baseline 90 tok/s") == [("baseline_throughput", 90.0), ("throughput", 120.0)]
    assert _readings("EAGLE3: 131.5 vs baseline: 90.1 tok/s") == \
        [("baseline_throughput", 90.1), ("throughput", 131.5)]
