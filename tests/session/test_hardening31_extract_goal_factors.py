"""Round 31: a factor a plan, a goal or an estimate heads is no measured speedup.

Agents write their plan before they measure: "Target: 2x over baseline", "Success criteria:
>=1.5x speedup over baseline", "Expected speedup 1.8x over baseline", a to-do list's "- [ ] Reach
2x speedup", an estimate's "Theoretical max speedup: 3.2x". Each was read as a speedup (then set
beside the measured one, or alone as the run's). What a run measured stays read, and
"target" as the target model (set against the run, or joined to the draft) stays the run's."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text", [
    "target: 2x over baseline",
    "Target: 2x speedup over baseline",
    "Target speedup: 2x",
    "Goal: >=2x speedup over baseline",
    "Goal: \u22652x speedup",
    "Success criteria: \u22651.5x speedup over baseline",
    "Aim: 2x faster than baseline",
    "Plan: get 2x over baseline by tuning topk",
    "Expected speedup 1.8x over baseline",
    "Estimated speedup: 1.8x",
    "needs to be 2x over baseline",
    "Theoretical max speedup: 3.2x",
    "which would mean 2x over baseline",
    "EAGLE-3 could give 2x speedup",
    "EAGLE-3 is expected to give 2-3x speedup",
    # a criterion's sign, a to-do's imperative (TodoWrite items)
    "Verify EAGLE-3 gives >=1.5x speedup over baseline",
    "- [ ] Reach 2x speedup",
    "Get to 2x over baseline",
])
def test_a_goal_or_an_estimate_is_no_reading(text):
    assert _readings(text) == []  # before: [("speedup", <the goal>)]


def test_the_measured_factor_beside_a_goal_is_the_one_read():
    text = "Plan: target: 2x over baseline.\nResult: EAGLE-3 gives 1.3x over baseline at bs=1."
    assert _readings(text) == [("speedup", 1.3)]  # before: the 2.0 as well


@pytest.mark.parametrize("text, readings", [
    ("EAGLE-3 vs target: 1.9x speedup", [("speedup", 1.9)]),
    ("Draft + target: 1.8x speedup", [("speedup", 1.8)]),
    ("EAGLE-3 achieves the expected speedup of 2.0x", [("speedup", 2.0)]),
    ("Speedup: 1.8x over baseline", [("speedup", 1.8)]),
    ("measured 1.3x speedup (target: 2x)", [("speedup", 1.3)]),
    ("We finally reached 2x speedup", [("speedup", 2.0)]),
    ("I could get 1.8x speedup before the upgrade", [("speedup", 1.8)]),
    ("EAGLE-3 gives 1.2-1.4x speedup", [("speedup", 1.4)]),
])
def test_measured_factors_stay_read(text, readings):
    assert _readings(text) == readings
