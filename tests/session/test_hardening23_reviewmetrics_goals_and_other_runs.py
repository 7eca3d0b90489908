"""A goal set as "tok/s=N" is no run's speed; a percentage against a run it names is no speedup.

"tok/s=152.3" is read as a record's speed, and so were a cap and a goal: "limit tok/s=500
configured", "target tok/s=200 (SLO)". "throughput 45% higher than with the old draft" compares
two speculative runs and was read as a speedup of 1.45 over the run without speculation (the
clause names the drafter): an explicit "than"/"over"/"vs" that names no baseline says against what.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True)]


@pytest.mark.parametrize("text, expected", [
    ("limit tok/s=500 configured, got 120 tok/s", [("throughput", 120.0)]),
    ("target tok/s=200 (SLO); measured tok/s=152.3", [("throughput", 152.3)]),
])
def test_a_goal_is_no_speed(text, expected):
    assert _readings(text) == expected


@pytest.mark.parametrize("text", [
    "with the EAGLE3 draft: throughput 45% higher than with the old draft",
    "EAGLE3 throughput is 20% lower compared to last week's run",
])
def test_against_another_run_is_no_speedup(text):
    assert [r for r in _readings(text) if r[0] == "speedup"] == []


@pytest.mark.parametrize("text, value", [
    ("~60% higher throughput with speculative decoding compared to the base model", 1.6),
    ("EAGLE3 gives ~60% higher throughput than the baseline", 1.6),
    ("using EAGLE3 gives ~60% higher throughput, and 40% lower TPOT", 1.6),
])
def test_against_the_baseline_is_a_speedup(text, value):
    assert [r for r in _readings(text) if r[0] == "speedup"] == [("speedup", value)]
