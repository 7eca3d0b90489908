"""Review of 7dd905a0, which made "target was" a goal's words ("the target was 2000 tok/s", "the
target was a 2x speedup"): where the target model is what a run is set against ("EAGLE-3 over
the target was 1.9x faster", "compared to the target was 1.8x faster"), the factor is a reading,
as it was before the round."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, readings", [
    ("EAGLE-3 over the target was 1.9x faster", [("speedup", 1.9)]),
    ("compared to the target was 1.8x faster", [("speedup", 1.8)]),
    ("the target was a 2x speedup", []),  # a goal, as 7dd905a0 reads it
    ("the target was 2000 tok/s", []),
    ("our goal was a 2x speedup", []),
])
def test_the_target_compared_with_is_no_goal(text, readings):
    assert _readings(text) == readings
