"""metrics: "EAGLE-3 gives 95 tok/s vs 140 tok/s without it": the reading "without it" is the baseline.

A bare "without" ending the clause ("30 tok/s with EAGLE, 21 tok/s without.") was read as the
run without what the sentence named; "without it" was not, and the slowdown gave no SD501.
"without it being warmed up" goes on: no baseline.
"""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics


def test_without_it_is_the_baseline():
    for text in ("EAGLE-3 gives 95 tok/s vs 140 tok/s without it.", "95 tok/s with EAGLE-3 and 140 tok/s without them."):
        assert sorted((m.name, m.value) for m in extract_metrics(text)) == [("baseline_throughput", 140.0),
                                                                           ("throughput", 95.0)]


def test_without_it_doing_something_is_no_baseline():
    assert [m.name for m in extract_metrics("We got 140 tok/s without it being warmed up.")] == ["throughput"]
