"""Review of round 29's metric extractors: where the new rules reached too far.

- A source's speedup and the run's own in one clause: "The README says 3x, measured here 1.9x
  speedup" lost the 1.9 with the README's 3 (the session's own measured speedup, dropped).
- "the target" owned or wanted is a goal whatever follows: "Our target is 55 tok/s at bs=1; with
  EAGLE-3 it drops to 40 tok/s", "We need the target of 150 tok/s; spec decoding is 90 tok/s" read
  55 and 150 as the target model's speed; "... 100 tok/s only with spec enabled" read 100.
- A plural name and a colon head a range ("Across 5 trials: 40 - 55 tok/s"): read 55, not 47.5.
- "acc_length=1.0" as a keyword argument in code an agent read is no accept length."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


@pytest.mark.parametrize("text, speedups", [
    ("The README says 3x, measured here 1.9x speedup", [1.9]),
    ("The docs claim 2x speedup, measured 1.3x speedup on H100", [1.3]),
    ("The paper reported a 4x speedup, this run gave a 1.6x speedup", [1.6]),
    ("According to the paper EAGLE-3 is 5x faster, the run shows 2.2x speedup", [2.2]),
    ("2.1x speedup per request in docs", [2.1]),
    ("we got 2.1x speedup", [2.1]),
    ("Speedup: 1.9x\n(EAGLE-3 paper reports 4.4x)", [1.9]),
])
def test_the_run_s_own_speedup_after_a_source_s_is_read(text, speedups):
    assert [v for n, v in _readings(text) if n == "speedup"] == speedups


@pytest.mark.parametrize("text, readings", [
    ("Our target is 55 tok/s at bs=1; with EAGLE-3 it drops to 40 tok/s", [("throughput", 40.0)]),
    ("We need the target of 150 tok/s; spec decoding is 90 tok/s", [("throughput", 90.0)]),
    ("our decode target is 55 tok/s, EAGLE-3 decode 40 tok/s", [("throughput", 40.0)]),
    ("the target was 100 tok/s only with spec enabled", []),
    ("the target was 40 tok/s on its own", [("throughput", 40.0)]),  # unchanged: the target model
])
def test_a_goal_someone_has_stays_a_goal(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text, readings", [
    ("Across 5 trials: 40 - 55 tok/s", [("throughput", 47.5)]),
    ("Throughput over requests: 40 - 55 tok/s", [("throughput", 47.5)]),
    ("layer 40 - 55 tok/s", [("throughput", 55.0)]),  # unchanged: a counter labels one reading
])
def test_a_plural_heading_keeps_its_range(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text, readings", [
    ("def send(acc_length=1.0):", []),
    ("record(x, acc_length=1.0)", []),
    ("acc_length=3.12 speed=293.98", [("accept_length", 3.12)]),  # unchanged: SGLang's print
])
def test_acc_length_in_code_is_no_reading(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text, speedups", [
    ("A typical run here gives 2.1x speedup", [2.1]),
    ("Typical speedup: 2.1x on our H100", [2.1]),
    ("Speculative decoding typically gives a 2-3x speedup at batch size 1", []),  # unchanged: no run's
])
def test_a_typical_run_of_the_session_s_own_is_read(text, speedups):
    assert [v for n, v in _readings(text) if n == "speedup"] == speedups


@pytest.mark.parametrize("text, readings", [
    ("targeted throughput is 100 tok/s, EAGLE-3: 90 tok/s", [("throughput", 90.0)]),
    ("target throughput of 2000 tok/s, EAGLE-3: 1500 tok/s", [("throughput", 1500.0)]),
    ("The target of 150 tok/s; EAGLE-3 is 90 tok/s", [("throughput", 90.0)]),
    ("The SLO target is 150 tok/s, EAGLE-3 gets 90 tok/s", [("throughput", 90.0)]),
    ("target decode was 40 tok/s, EAGLE-3 decode 95 tok/s", [("throughput", 40.0), ("throughput", 95.0)]),  # unchanged
])
def test_a_target_set_or_of_an_slo_stays_a_goal(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text, readings", [
    ("EAGLE3 got (acc_length=3.12) on bs=1", [("accept_length", 3.12)]),
    ("foo(acc_length=3.0, x=1)", []),
])
def test_acc_length_in_parentheses_of_prose_is_read(text, readings):
    assert _readings(text) == readings
