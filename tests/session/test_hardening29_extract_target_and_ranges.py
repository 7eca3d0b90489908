""""The target" is a goal ("the target was 2000 tok/s") or, in speculative decoding, the target
model. Round 28 read every "the target was/is N tok/s" as a goal, so the target model's own speed
was lost where the words after it say which it is: "the target was 40 tok/s on its own", "...
without the drafter", "the target was 40 tok/s and EAGLE-3 was 95 tok/s" (the 40 was dropped).
A counter's or an index's name before a spaced dash labels one reading: "layer 40 - 55 tok/s",
"epoch 40 - 55 tok/s" were the range 40 to 55 (47.5); now 55, as "bs 64 - 55 tok/s" is."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, readings", [
    ("the target was 40 tok/s on its own", [("throughput", 40.0)]),
    ("the target is 40 tok/s alone, EAGLE-3 gets 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),
    ("the target was 40 tok/s without the drafter", [("baseline_throughput", 40.0)]),
    ("the target was 40 tok/s (no spec)", [("baseline_throughput", 40.0)]),
    ("the target was 40 tok/s and EAGLE-3 was 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),
    ("the target was 40 tok/s, with EAGLE-3 it was 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),
    ("the target was 40 tok/s; eagle3 gets 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),
    ("the target was 40 tok/s vs 95 tok/s with EAGLE-3", [("throughput", 40.0), ("throughput", 95.0)]),
    ("the target was 120 tok/s before we enabled EAGLE-3", [("throughput", 120.0)]),
    ("The target is 55 tok/s at bs=1; with EAGLE-3 it drops to 40 tok/s", [("throughput", 55.0), ("throughput", 40.0)]),
    ("target decode was 40 tok/s, EAGLE-3 decode 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),
])
def test_the_target_model_s_speed_is_read(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text, readings", [
    ("the target was 2000 tok/s", []),
    ("the target is 2000 tok/s for this service", []),
    ("the target was 2000 tok/s but EAGLE-3 only reached 1500 tok/s", [("throughput", 1500.0)]),
    ("the target was 2000 tok/s and we got 1500 tok/s", [("throughput", 1500.0)]),
    ("the target was 2000 tok/s with EAGLE-3 on", []),
    ("our target is 55 tok/s at bs=1", []),
    ("our throughput target is 2000 tok/s, EAGLE-3 gets 1500 tok/s", [("throughput", 1500.0)]),
    ("target throughput of 2000 tok/s", []),
])
def test_a_target_to_reach_stays_a_goal(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text", [
    "layer 40 - 55 tok/s",
    "tried layers 40 - 55 tok/s",
    "epoch 40 - 55 tok/s",
    "trial #40 - 55 tok/s",
    "req 40 - 55 tok/s",
    "run 40 - 55 tok/s",
])
def test_a_counter_then_a_spaced_dash_is_one_reading(text):
    assert _readings(text) == [("throughput", 55.0)]


@pytest.mark.parametrize("text, readings", [
    ("steps 3 - 5 tok/s", [("throughput", 5.0)]),  # unchanged: a setting, then one reading
    ("it was 40 - 55 tok/s", [("throughput", 47.5)]),
    ("EAGLE-3 runs 40 - 55 tok/s", [("throughput", 47.5)]),  # a verb, no counter
    ("EAGLE-3 runs at 40 - 55 tok/s", [("throughput", 47.5)]),
])
def test_a_spaced_range_after_other_words_is_still_a_range(text, readings):
    assert _readings(text) == readings
