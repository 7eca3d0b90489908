"""Two throughputs said with a thousand's letter ("from 1.2k to 1.5k tok/s", "1.2k -> 1.5k")
give both, as "from 1200 to 1500 tok/s" does (since 8af00f2 only the second was read: the run
before the change lost). A context said in k before a speed ("context 4k vs 120 tok/s") is
still a size, as 4096 is."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text, readings", [
    ("throughput went from 1.2k to 1.5k tok/s", [("throughput", 1200.0), ("throughput", 1500.0)]),
    ("throughput 1.2k -> 1.5k tok/s", [("throughput", 1200.0), ("throughput", 1500.0)]),
    ("context 4k vs 120 tok/s", [("throughput", 120.0)]),
    ("a 32k to 50 tok/s", [("throughput", 50.0)]),
])
def test_a_pair_said_in_thousands(text, readings):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == readings
