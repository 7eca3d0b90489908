"""Round 31 mend: "supposed to give 2x" is a goal, whatever words sit beside it.

_wanted's literal gate had no word for "supposed", so _GOAL_FACTOR's "supposed to give|be" branch
ran only when another gate word sat within 40 characters: "EAGLE-3 is supposed to give 2x speedup"
was read as the run's speedup, "Per the plan it is supposed to give 2x speedup" was not. The gate
now lets "suppos" through; what the run gave after it stays a reading."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text", [
    "EAGLE-3 is supposed to give 2x speedup",
    "Per the plan it is supposed to give 2x speedup",
])
def test_a_supposed_factor_is_no_reading(text):
    assert _readings(text) == []  # before: [("speedup", 2.0)] for the first


@pytest.mark.parametrize("text", [
    "EAGLE-3 was supposed to give 2x speedup, but it gave 1.3x speedup",
    "It was supposed to give 2x; it gave 1.3x speedup",
])
def test_what_the_run_gave_after_it_is_read(text):
    assert _readings(text) == [("speedup", 1.3)]
