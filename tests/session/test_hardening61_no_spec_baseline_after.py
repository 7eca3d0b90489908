"""metrics: "95 tok/s (no-spec baseline 140 tok/s)" names 140 the baseline, not 95.

"91.2 tok/s (baseline 90 tok/s)" compared 91.2 with a baseline of its own number, but with a
second word before that number ("(no-spec baseline 140 tok/s)", "(no-spec baseline: 140 tok/s)")
the first word was read as 95's label: both readings baselines, and no speedup told. Now the
words name the number after them; "95 tok/s (no-spec)" still names 95.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text, True))


@pytest.mark.parametrize("text", [
    "EAGLE-3 gives 95 tok/s (no-spec baseline 140 tok/s).",
    "EAGLE-3 gives 95 tok/s (no-spec baseline: 140 tok/s).",
])
def test_the_second_is_the_baseline(text):
    assert _readings(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


def test_a_label_alone_still_names_its_reading():
    assert _readings("We measured 140 tok/s (no-spec).") == [("baseline_throughput", 140.0)]
