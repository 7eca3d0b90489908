"""A fleet's speed before a pair is a speed, however large.

"aggregate across 8 gpus 2048 vs 256 tok/s" lost its 2048: a power of two eight times the second
number reads as a context or batch size ("4096 vs 120 tok/s"), and nothing said 2048 was a
speed. A fleet's words ("aggregate", "across 8 GPUs") do: 8 GPUs make 8 times one GPU's tokens.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text", [
    "aggregate across 8 gpus 2048 vs 256 tok/s",
    "Aggregate across 8 GPUs: 2048 vs 256 tok/s",
    "On 8 GPUs 2048 vs 256 tok/s with EAGLE3 on one of them",
    "aggregate 2048 vs 256 tok/s",
])
def test_a_fleet_speed_keeps_its_first_number(text):
    assert ("throughput", 2048.0) in _readings(text)
    assert ("throughput", 256.0) in _readings(text)


@pytest.mark.parametrize("text", [
    "context 4096 vs 120 tok/s",
    "8 GPUs, context 4096 vs 120 tok/s",
    "4096 vs 120 tok/s",
])
def test_a_context_before_the_pair_is_still_no_speed(text):
    assert _readings(text) == [("throughput", 120.0)]
