"""metrics: a pair's legend names its sides, both baselines included, each reading its own unit too.

"140 vs 95 tok/s (baseline vs EAGLE-3)" was read by its legend (round 59), but a legend naming
both sides baselines ("(baseline vs baseline rerun)": two runs without speculation) kept the
labels the readings had, 140 ours and 95 the baseline (the "(baseline" after the unit read as
the 95's word): a 1.47x speedup nobody measured. A pair each with its own unit ("140 tok/s vs
95 tok/s (baseline vs EAGLE-3)") ignored its legend altogether: 95 the baseline, 140 ours, and
"(EAGLE-3 vs baseline)" named no baseline. Now both forms follow the legend; both sides
baselines make both readings baselines; a legend naming no baseline leaves the readings as read.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text, True))


@pytest.mark.parametrize("text", [
    "140 vs 95 tok/s (baseline vs baseline rerun).",
    "140 tok/s vs 95 tok/s (baseline vs baseline after the reboot).",
])
def test_both_sides_baselines(text):
    assert _readings(text) == [("baseline_throughput", 95.0), ("baseline_throughput", 140.0)]


@pytest.mark.parametrize("text", [
    "140 tok/s vs 95 tok/s (baseline vs EAGLE-3).",
    "95 tok/s vs 140 tok/s (EAGLE-3 vs baseline).",
    "95 tok/s versus 140 tok/s (EAGLE-3 versus no-spec).",
])
def test_each_its_own_unit_follows_the_legend(text):
    assert _readings(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


def test_thousands_in_the_first():
    assert _readings("1,140 tok/s vs 95 tok/s (baseline vs EAGLE-3).") == [
        ("baseline_throughput", 1140.0), ("throughput", 95.0)]


@pytest.mark.parametrize("text", [
    "95 tok/s vs 140 tok/s (EAGLE-3 topk=1 vs EAGLE-3 topk=4).",
    "95 vs 140 tok/s (EAGLE-3 topk=1 vs EAGLE-3 topk=4).",
])
def test_no_baseline_in_the_legend_leaves_them(text):
    assert _readings(text) == [("throughput", 95.0), ("throughput", 140.0)]
