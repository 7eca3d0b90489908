"""A benchmark's mean end-to-end latency, and one speedup for each method named beside it.

`vllm bench serve` prints "Mean E2EL (ms)" and "Median E2EL (ms)" under its "End-to-end Latency"
rule (vllm/benchmarks/serve.py), SGLang's bench_serving "Mean E2E Latency (ms)": only SGLang's
median was read, the mean of neither and no vLLM line at all. "1.52x (EAGLE3) and 0.97x (ngram)"
gave the first factor only: the second method's speedup, below 1, was lost.
"""

import pytest

from spec_debug.session.metrics import extract_metrics

# a `vllm bench serve` result as pasted in a public benchmark report (trailing blanks kept)
VLLM_BENCH = """============ Serving Benchmark Result ============
Successful requests:                     10        
Failed requests:                         0         
Benchmark duration (s):                  0.18      
Request throughput (req/s):              56.32     
Total Token throughput (tok/s):          7726.76   
----------------End-to-end Latency----------------
Mean E2EL (ms):                          154.06    
Median E2EL (ms):                        165.57    
P99 E2EL (ms):                           166.66    
==================================================
"""

SGLANG_BENCH = """============ Serving Benchmark Result ============
Output token throughput (tok/s):         2212.47
Mean E2E Latency (ms):                   1432.10
Median E2E Latency (ms):                 1400.00
"""


def _named(text, name):
    return [m.value for m in extract_metrics(text) if m.name == name]


def test_vllm_bench_mean_and_median_e2el():
    assert _named(VLLM_BENCH, "e2e_latency_mean") == [154.06]
    assert _named(VLLM_BENCH, "e2e_latency_median") == [165.57]
    assert _named(VLLM_BENCH, "total_throughput") == [7726.76]


def test_sglang_bench_mean_e2e_latency():
    assert _named(SGLANG_BENCH, "e2e_latency_mean") == [1432.1]
    assert _named(SGLANG_BENCH, "e2e_latency_median") == [1400.0]


def _speedups(text):
    return [(m.value, m.context) for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text,factors", [
    ("Speedup: 1.52x (EAGLE3) and 0.97x (ngram).", [1.52, 0.97]),
    ("a 1.52x speedup (EAGLE3) and 0.97x (ngram)", [1.52, 0.97]),
    ("1.52x speedup with EAGLE3 and 0.97x with ngram", [1.52, 0.97]),
    ("1.8x speedup with EAGLE-3, 1.1x with ngram, and 1.3x (MTP)", [1.8, 1.1, 1.3]),
])
def test_each_method_its_speedup(text, factors):
    found = _speedups(text)
    assert [v for v, _ in found] == factors
    assert all("ngram" in c or "MTP" in c for _, c in found[1:])


@pytest.mark.parametrize("text", [
    "a 1.5x speedup (EAGLE3) and 2x the memory",       # no method beside the second factor
    "1.52x speedup (EAGLE3) and 1.0x (baseline)",     # the run without drafting
    "Speedup: 1.52x (H100) and 0.97x (A100)",         # GPUs, not methods
    "2.1x speedup (bs=1) and 1.2x (bs=64)",            # batch sizes
])
def test_a_second_factor_without_a_method_is_none(text):
    assert len(_speedups(text)) == 1


@pytest.mark.parametrize("text,name,ms", [
    ("The mean E2E latency dropped to 1432 ms with EAGLE-3.", "e2e_latency_mean", 1432.0),
    ("median end-to-end latency: 1.4 s", "e2e_latency_median", 1400.0),
    ("avg end-to-end request latency was ~850ms", "e2e_latency_mean", 850.0),
    ("mean e2e latency (ms): 154.06", "e2e_latency_mean", 154.06),
])
def test_a_mean_e2e_latency_in_words(text, name, ms):
    assert [(m.name, m.value, m.unit) for m in extract_metrics(text, prose=True)] == [(name, ms, "ms")]


@pytest.mark.parametrize("text", ["E2E latency 1.4 s",              # mean or median: not said
                                  "mean e2e latency: 154",           # no unit
                                  "mean e2e latency (ms): 154.06x"])
def test_no_e2e_latency_without_its_statistic_and_unit(text):
    assert extract_metrics(text, prose=True) == []


def test_the_bench_block_is_read_once():
    assert _named(SGLANG_BENCH, "e2e_latency_mean") == [1432.1]
