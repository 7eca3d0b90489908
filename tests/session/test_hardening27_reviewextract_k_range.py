"""A throughput range said in thousands ("1.2k-1.5k tok/s") is no reading: its middle (1350,
read since 6a9f6e7) is a number nobody measured, and "1.2-1.5k" or "1.2k – 1.5k" read as
their end (1500). One thousand after a spaced dash is still a reading."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text, readings", [
    ("EAGLE3 gives 1.2k-1.5k tok/s vs 800 tok/s baseline", [("baseline_throughput", 800.0)]),
    ("EAGLE3: 1.2-1.5k tok/s", []),
    ("EAGLE3: 1.2k \u2013 1.5k tokens/s", []),
    ("EAGLE3: 1.2k~1.5k tok/s", []),
    ("bs 64 - 2.9k tok/s", [("throughput", 2900.0)]),
    ("EAGLE3: 50-55 tok/s", [("throughput", 52.5)]),  # unchanged: a range of a few tok/s
])
def test_a_range_of_thousands_is_no_reading(text, readings):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == readings
