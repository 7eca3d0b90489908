"""A port, a PID, an issue's number or a device's index is no speed.

The number right before a throughput unit, or the first of a pair that shares one, was read as
a speed whatever it named: "port 8000 vs 120 tok/s" gave 8000 tok/s, "curl
http://10.0.0.5:30000 -> 120 tok/s" 30000 tok/s, "GPU 0 and GPU 1 to 120 tok/s" 1 tok/s,
"PR #12345 tok/s metric" 12345 tok/s. A speed of 30000 tok/s beside a baseline of 120 reads as
a 250x slowdown.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text", [
    "port 8000 vs 120 tok/s",
    "curl http://10.0.0.5:30000 -> 120 tok/s",
    "localhost:8000 vs 120 tok/s",
    "GPU 0 and GPU 1 to 120 tok/s",
    "issue #4247 vs 120 tok/s",
])
def test_an_identifier_before_a_pair_is_no_speed(text):
    assert _readings(text) == [("throughput", 120.0)]


@pytest.mark.parametrize("text", ["Server on port 30000 tok/s check later", "pid 12345 tokens/s",
                                  "PR #12345 tok/s metric"])
def test_an_identifier_before_a_unit_is_no_speed(text):
    assert _readings(text) == []


def test_labels_and_speeds_stay_readings():
    assert _readings("bs1:120 vs 90 tok/s") == [("throughput", 90.0), ("throughput", 120.0)]
    assert _readings("EAGLE3:131.5 vs 90 tok/s") == [("throughput", 90.0), ("throughput", 131.5)]
    assert _readings("gpu0:45 tok/s") == [("throughput", 45.0)]
    assert _readings("see issue #4247: 378 tok/s") == [("throughput", 378.0)]
    assert _readings("went from 90 to 120 tok/s on GPU 0") == [("throughput", 90.0), ("throughput", 120.0)]
