"""A percentage before "speedup" is a speedup, as a factor before it is.

"a 60% speedup over baseline" gave nothing: only a factor ("1.6x speedup") was read before the
word. The word says against what (the run without speculation), so the percentage is the gain:
1 + N/100. Against another drafter ("a 17% speedup over eagle-2") it is none, as for factors.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text, value", [
    ("a 60% speedup over baseline", 1.6),
    ("EAGLE3 gives a ~35% speed-up on MT-Bench", 1.35),
    ("that is a +20% speedup at bs=1", 1.2),
])
def test_a_percentage_before_speedup(text, value):
    assert _speedups(text) == [value]


@pytest.mark.parametrize("text", ["fr-spec gives a 17% speedup over eagle-2", "60% of the speedup comes from the draft",
                                  "-20% speedup"])
def test_other_percentages_are_none(text):
    assert _speedups(text) == []
