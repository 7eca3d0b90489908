"""A label before a pair is no setting: its first number stays a speed.

Review of 06346cf/e394aeb: the setting words before a pair's first number also matched a count's
noun or a label ending in a colon, and the power-of-two rule a speed named as one. "8 GPUs: 4096
vs 2048 tok/s" (a fleet's throughput) lost 4096, "per GPU: 900 vs 700 tok/s" 900, "At 32k context:
150 vs 100 tok/s" 150, "throughput 4096 vs 480 tok/s" (a run 8x slower) 4096, "throughput
went from 2048 to 256 tok/s after enabling EAGLE" (one speed changing) 2048.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text, first, second", [
    ("8 GPUs: 4096 vs 2048 tok/s", 4096.0, 2048.0),
    ("On 8 GPUs: 4096 vs 2048 tok/s", 4096.0, 2048.0),
    ("per GPU: 900 vs 700 tok/s", 900.0, 700.0),
    ("At 32k context: 150 vs 100 tok/s", 150.0, 100.0),
    ("32K ctx 150 vs 100 tok/s", 150.0, 100.0),
    ("throughput 4096 vs 480 tok/s", 4096.0, 480.0),
])
def test_a_label_before_a_pair_keeps_its_first_speed(text, first, second):
    assert _readings(text) == sorted([("throughput", first), ("throughput", second)])


@pytest.mark.parametrize("text", ["context 4096 vs 120 tok/s", "GPU 0 and GPU 1 to 120 tok/s",
                                  "k 4 vs 120 tok/s", "batch 32 vs 120 tok/s", "4096 vs 120 tok/s"])
def test_a_setting_before_a_pair_is_still_no_speed(text):
    assert _readings(text) == [("throughput", 120.0)]


def test_a_change_from_a_power_of_two_keeps_both_speeds():
    assert _readings("throughput went from 2048 to 256 tok/s after enabling EAGLE") == \
        [("baseline_throughput", 2048.0), ("throughput", 256.0)]
    assert _readings("Decode throughput dropped from 1024 to 128 tok/s") == \
        [("throughput", 128.0), ("throughput", 1024.0)]
