"""Round 31 review: a goal's heading that a verb makes an outcome, and a ">=" read off a run.

6a2d86c3 dropped a factor a goal heads ("Target: 2x over baseline") and a bare ">=" (for "Verify
EAGLE-3 gives >=1.5x speedup"). It dropped as well what a run measured against its goal ("We
reached the target: 1.8x over baseline", "Missed our goal: 1.4x speedup") and a measured lower bound
("Saw >=1.5x speedup at every batch size"): real readings the old code kept."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, value", [
    ("We reached the target: 1.8x over baseline", 1.8),
    ("Hit the target: 1.8x over baseline", 1.8),
    ("Met the goal: 2.1x speedup", 2.1),
    ("Missed our goal: 1.4x speedup", 1.4),
    ("We're below the target: 1.4x over baseline", 1.4),
    ("Benchmark is done. Measured \u22651.5x speedup on all runs", 1.5),
    ("Saw \u22651.5x speedup at every batch size", 1.5),
    ("All runs >= 1.5x speedup", 1.5),
])
def test_what_a_run_measured_against_its_goal_is_read(text, value):
    assert _readings(text) == [("speedup", value)]  # before: [] (dropped as a goal)


@pytest.mark.parametrize("text", [
    "Target: 2x over baseline",
    "Verify EAGLE-3 gives >=1.5x speedup over baseline",
    "Make sure the run gives \u22651.5x speedup",
    "Goal: >=2x speedup over baseline",
])
def test_goals_and_criteria_stay_unread(text):
    assert _readings(text) == []
