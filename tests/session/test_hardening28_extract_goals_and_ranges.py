"""A throughput said as a need, a goal or a wish is no run's reading ("we need 2000 tok/s", "the
target was 2000 tok/s" were 2000 tok/s runs); a change written with its minus sign ("gain of -5
tok/s") is no run's speed (was read as 5 tok/s, and "60 -5 tok/s" as the range 60 to -5); a
range written with a spaced dash ("50 - 55 tok/s") reads as its middle, as "50-55" does (was its
end, 55)."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text", [
    "the target was 2000 tok/s",
    "we need 2000 tok/s",
    "goal: 120 tok/s",
    "we are aiming for 150 tok/s",
    "it requires 95 tok/s to pay off",
    "our goal was a 2x speedup",
])
def test_a_goal_is_no_reading(text):
    assert _readings(text) == []


@pytest.mark.parametrize("text, readings", [
    ("I need 2000 tok/s but only get 800 tok/s", [("throughput", 800.0)]),
    ("Target: 40 tok/s", [("throughput", 40.0)]),  # the target model's speed
    ("target at 40 tok/s, EAGLE-3 at 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),
])
def test_what_a_run_gave_stays_beside_a_goal(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text", [
    "EAGLE-3 gives a gain of -5 tok/s",
    "| fix | -5 tok/s |",
    "run2   60 -5 tok/s",
])
def test_a_negative_change_is_no_run_speed(text):
    assert _readings(text) == []


@pytest.mark.parametrize("text, readings", [
    ("with EAGLE-3 we see 50 - 55 tok/s", [("throughput", 52.5)]),
    ("with EAGLE-3 we see 50-55 tok/s", [("throughput", 52.5)]),  # unchanged
    ("bs 64 - 55 tok/s", [("throughput", 55.0)]),  # a label, then one reading
    ("run 3 - 55 tok/s", [("throughput", 55.0)]),
    ("EAGLE3-95 tok/s", [("throughput", 95.0)]),
    ("1.2k-1.5k tok/s", []),  # unchanged: a range of thousands
])
def test_a_spaced_range_reads_as_its_middle(text, readings):
    assert _readings(text) == readings
