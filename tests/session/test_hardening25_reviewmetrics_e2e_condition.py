"""A number after "of"/"at" in a prose E2E latency whose unit came first is no latency (review of 323a1d8).

323a1d8 reads "median end-to-end latency: 1.4 s" and "mean e2e latency (ms): 154.06". With the unit
said in "(ms)" before the number, a number after "at" or "of" is as often the run's condition:
"Mean E2E latency (ms) at 16 concurrency: 1432.1" was read as a 16 ms mean latency, "(ms) of 3
runs: 900" as 3 ms. Those are none now; a unit after the number still reads ("at 1.4 s").
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _e2e(text):
    return [(m.name, m.value) for m in scan_metrics(text, prose=True) if m.name.startswith("e2e_latency")]


@pytest.mark.parametrize("text", ["Mean E2E latency (ms) at 16 concurrency: 1432.1",
                                  "median E2E latency (ms) of 3 runs: 900"])
def test_a_condition_after_the_said_unit_is_no_latency(text):
    assert _e2e(text) == []


@pytest.mark.parametrize("text, reading", [
    ("The mean e2e latency at 1.4 s is fine", ("e2e_latency_mean", 1400.0)),
    ("mean e2e latency (ms): 154.06", ("e2e_latency_mean", 154.06)),
    ("median end-to-end latency: 1.4 s", ("e2e_latency_median", 1400.0)),
])
def test_the_day_s_readings_stay(text, reading):
    assert _e2e(text) == [reading]
