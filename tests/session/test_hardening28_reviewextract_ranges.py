"""Review of round 28's range and minus-sign readings (7dd905a0). "50 -55 tok/s" is a range
with its dash glued to the second number (read as 52.5 before the round): the new minus-sign
rule took the 55 for a change, -55, and the reading was lost. A spaced dash after a
`key=value` label, a clock time, a counter or a date ("c=32 - 55 tok/s", "12:00:45 - 55 tok/s",
"3/40 - 55 tok/s", "2026-01-30 - 55 tok/s") is a label, then one reading (55, as before the round), not a range from
the label's number."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, readings", [
    ("with EAGLE-3 we get 50 -55 tok/s", [("throughput", 52.5)]),
    ("EAGLE3: 90 -95 tok/s, target alone 40 tok/s", [("throughput", 92.5), ("throughput", 40.0)]),
    ("run2   60 -5 tok/s", []),  # still a change: the number after the dash is the lower one
    ("EAGLE-3 gives a gain of -5 tok/s", []),
])
def test_a_range_with_its_dash_glued_to_the_second_number_is_a_range(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text", [
    "c=32 - 55 tok/s",
    "max_concurrency=32 - 55 tok/s",
    "12:00:45 - 55 tok/s",
    "request 3/40 - 55 tok/s",
    "2026-01-30 - 55 tok/s",
    "run-40 - 55 tok/s",
])
def test_a_spaced_dash_after_a_label_is_one_reading(text):
    assert _readings(text) == [("throughput", 55.0)]


def test_a_spaced_range_still_reads_as_its_middle():
    assert _readings("with EAGLE-3 we see 50 - 55 tok/s") == [("throughput", 52.5)]
    assert _readings("EAGLE-3 (50 - 55 tok/s)") == [("throughput", 52.5)]
