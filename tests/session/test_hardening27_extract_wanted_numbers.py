"""A speedup or a throughput said as a wish, a requirement or a projection is no run's reading:
"we need at least 2x speedup to justify this" was a 2x speedup, "our throughput target is 2000
tok/s" a 2000 tok/s run (the target word after its noun; "target throughput" was already none)."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text", [
    "We need at least 2x speedup to justify this; right now it is 1.3x.",
    "aiming for a 1.5x speedup before the release",
    "it should give ~2x speedup with EAGLE-3",
    "expecting a speedup of 2x from the drafter",
    "Our throughput target is 2000 tok/s.",
    "speed target: 50 tok/s",
])
def test_a_wish_is_no_reading(text):
    assert scan_metrics(text, True) == []


@pytest.mark.parametrize("text, reading", [
    ("EAGLE-3 gave a 2.1x speedup over AR", ("speedup", 2.1)),
    ("We got at least 2x speedup on every prompt", ("speedup", 2.0)),
    ("our throughput target is 2000 tok/s; we are at 1200 tok/s", ("throughput", 1200.0)),
    ("Target: 40 tok/s", ("throughput", 40.0)),  # the target model's speed
])
def test_a_measurement_stays(text, reading):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == [reading]
