"""metrics: a legend after a pair, "140 vs 95 tok/s (baseline vs EAGLE-3)", names each side in order.

The "(baseline" after the unit was read as the second number's own word: the 95 of EAGLE-3
became the baseline and the 140 a throughput, a 1.5x speedup where the run was slower. A
legend that names two runs neither of which is the baseline ("(topk 8 vs topk 1)") names no
baseline.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


@pytest.mark.parametrize("text", [
    "Throughput is 140 vs 95 tok/s (baseline vs EAGLE-3).",
    "Throughput is 95 vs 140 tok/s (EAGLE-3 vs baseline).",
    "Throughput is 95 vs 140 tok/s (EAGLE-3 vs no-spec).",
])
def test_the_legend_says_which_is_the_baseline(text):
    assert sorted((m.name, m.value) for m in extract_metrics(text)) == [("baseline_throughput", 140.0),
                                                                       ("throughput", 95.0)]


def test_a_legend_of_two_drafter_runs_names_no_baseline():
    assert [m.name for m in extract_metrics("Throughput is 95 vs 140 tok/s (topk 8 vs topk 1).")] == [
        "throughput", "throughput"]
