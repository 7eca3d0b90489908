""""54.8 vs 90 tok/s" gives the first number the unit written once after the second; but a
number that ends a name or a setting is no reading. This tool's sessions name the method
"EAGLE-3" in nearly every sentence, and "no spec 90 tok/s, EAGLE-3 -> 54.8 tok/s" read as a
decode throughput of 3 tok/s; "tp=8 -> 120 tok/s" as 8 tok/s (the tp=1 / tp=4 comparison of
sgl-project/sglang issue #6949)."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics


def _throughputs(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text) if m.unit == "tok/s"]


def test_the_digit_of_eagle_3_is_no_throughput() -> None:
    assert _throughputs("no spec: 90 tok/s; EAGLE-3 -> 54.8 tok/s with --speculative-num-steps 1.") == [
        ("baseline_throughput", 90.0), ("throughput", 54.8)]
    assert _throughputs("Llama-3 vs 54.8 tok/s") == [("throughput", 54.8)]


def test_a_setting_before_the_arrow_is_no_throughput() -> None:
    assert _throughputs("tp=8 -> 120 tok/s") == [("throughput", 120.0)]
    assert _throughputs("Throughput is 1,234 tok/s at bs=64 vs 890 tok/s before.") == [
        ("throughput", 1234.0), ("throughput", 890.0)]


def test_a_pair_of_readings_still_shares_its_unit() -> None:
    assert _throughputs("from 54.8 to 91.2 tok/s") == [("throughput", 54.8), ("throughput", 91.2)]
    assert _throughputs("num_steps 1 \u2192 3: 54.8 \u2192 91.2 tok/s") == [("throughput", 54.8), ("throughput", 91.2)]
