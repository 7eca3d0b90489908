"""The windows before a prose reading (24, 40, 80, 100, 200, 240 characters) are clipped at the
text's start by a conditional, not max(0, ...): readings at every offset around those reaches read
the same as far from the start."""

import pytest

from spec_debug.session.metrics import scan_metrics

PADS = (0, 1, 7, 8, 9, 23, 24, 25, 39, 40, 41, 79, 80, 81, 99, 100, 101, 199, 200, 201, 239, 240, 241)

CASES = [
    ("Baseline 90 tok/s, EAGLE-3 95 tok/s.", [("baseline_throughput", 90.0), ("throughput", 95.0)]),
    ("without speculation: 120 tok/s at bs=1, 410 tok/s at bs=4",
     [("baseline_throughput", 120.0), ("baseline_throughput", 410.0)]),
    ("prefill throughput 6000 tok/s", [("prefill_throughput", 6000.0)]),
    ("we expected 150 tok/s", []),
    ("from 20 tok/s to 50 tok/s with EAGLE3", [("baseline_throughput", 20.0), ("throughput", 50.0)]),
    ("vanilla 140; EAGLE-3 95 tok/s", [("baseline_throughput", 140.0), ("throughput", 95.0)]),
]


@pytest.mark.parametrize("body,expected", CASES)
@pytest.mark.parametrize("pad", PADS)
def test_reading_at_any_offset_from_the_start(body, expected, pad):
    for filler in (" ", "\n"):
        assert [(m.name, m.value) for m in scan_metrics(filler * pad + body, True)] == expected
