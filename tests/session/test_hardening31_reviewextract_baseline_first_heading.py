"""Round 31 review: a heading that names the baseline first gives the pair after it in that order.

4b836f55 read "EAGLE-3 vs baseline: 40 vs 60 tok/s" as the run's 40, then the baseline's 60. The
mirror heading, "Baseline vs EAGLE-3: 60 vs 40 tok/s" (and "no-spec vs spec: 90 vs 55 tok/s"), still
read both numbers as the run's: no baseline, so a run slower than it left SD501 quiet."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, baseline, run", [
    ("Baseline vs EAGLE-3: 60 vs 40 tok/s", 60.0, 40.0),
    ("Baseline vs EAGLE-3: 60 tok/s vs 40 tok/s", 60.0, 40.0),
    ("no-spec vs spec: 90 vs 55 tok/s", 90.0, 55.0),
    ("Throughput, vanilla vs EAGLE-3 (topk=4): 60 vs 40 tok/s", 60.0, 40.0),
    ("Without speculation vs with EAGLE-3: 60 tok/s vs 40 tok/s", 60.0, 40.0),
])
def test_the_baseline_named_first_is_read_first(text, baseline, run):
    assert _readings(text) == [("baseline_throughput", baseline), ("throughput", run)]  # before: two throughputs


@pytest.mark.parametrize("text, readings", [
    ("EAGLE-3 vs baseline: 40 vs 60 tok/s", [("throughput", 40.0), ("baseline_throughput", 60.0)]),
    ("Baseline vs EAGLE-3: EAGLE-3 40 tok/s vs baseline 60 tok/s",
     [("throughput", 40.0), ("baseline_throughput", 60.0)]),
    ("Baseline vs EAGLE-3: 60 tok/s", [("throughput", 60.0)]),  # no pair: the heading gives no order
])
def test_other_orders_stay(text, readings):
    assert _readings(text) == readings
