"""A throughput said with a thousand's letter ("~2.9k tok/s", "1.2K tokens/s"), as people write
a batch's speed, was no reading at all."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text, readings", [
    ("output throughput 2.9k tok/s", [("throughput", 2900.0)]),
    ("Throughput: 1.2K tokens/s", [("throughput", 1200.0)]),
    ("EAGLE3 hits ~2.9k tok/s vs 1.6k tok/s baseline", [("throughput", 2900.0), ("baseline_throughput", 1600.0)]),
    ("a 32K context at 50 tok/s", [("throughput", 50.0)]),  # the context's K is no speed
    ("1.2k-1.5k tok/s", []),  # a range of thousands: no reading (its middle nobody measured)
])
def test_a_thousand_said_with_k(text, readings):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == readings
