"""metrics: "EAGLE-3 is slower than the plain model (95 vs 140 tok/s)" pairs ours with the baseline.

"than the no-spec baseline (131.5 vs 90.1 tok/s)" was read; named as the server or model
without speculation ("the plain model", "the no-spec server", "the non-speculative
deployment") the pair was two throughputs and a reported slowdown gave no SD501. Another
program ("the plain HF generate") is no baseline.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


@pytest.mark.parametrize("text", [
    "EAGLE-3 is slower than the plain model (95 vs 140 tok/s).",
    "EAGLE-3 is slower than the no-spec server (95 vs 140 tok/s).",
    "With EAGLE-3 we are slower than the non-speculative deployment (95 vs 140 tok/s).",
])
def test_the_second_is_the_baseline(text):
    assert sorted((m.name, m.value) for m in extract_metrics(text)) == [("baseline_throughput", 140.0),
                                                                       ("throughput", 95.0)]


def test_another_program_is_no_baseline():
    assert [m.name for m in extract_metrics("EAGLE-3 is slower than the plain HF generate (95 vs 140 tok/s).")] == [
        "throughput", "throughput"]
