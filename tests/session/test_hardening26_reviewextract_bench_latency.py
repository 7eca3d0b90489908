"""`vllm bench latency` prints its result as "Avg latency: N seconds" over percentile lines
(vllm/benchmarks/latency.py); the run's one number was not read. The outputs are as published
(a ROCm run's README; a run whose engine logged its throughput lines during the iterations)."""

from spec_debug.session.metrics import scan_metrics

PERCENTILES = "".join(f"{p}% percentile latency: 1.47{i} seconds\n" for i, p in enumerate((10, 25, 50, 75, 90, 99)))


def _latencies(text):
    return [(m.name, round(m.value, 3), m.unit) for m in scan_metrics(text, False) if "latency" in m.name]


def test_the_avg_latency_is_the_e2e_latency_in_ms():
    out = "Avg latency: 1.475279240796808 seconds\n" + PERCENTILES
    assert _latencies(out) == [("e2e_latency_mean", 1475.279, "ms")]


def test_read_beside_the_engines_throughput_lines():
    out = ("Bench iterations: 100%: Engine 000: Avg prompt throughput: 614.3 tokens/s, "
           "Avg generation throughput: 318.0 tokens/s\n\nAvg latency: 1.6169658465310932 seconds\n" + PERCENTILES)
    assert _latencies(out) == [("e2e_latency_mean", 1616.966, "ms")]


def test_another_scripts_avg_latency_is_not_read():
    # an engine step's average (vLLM's LLMEngine example script): no percentile lines after it
    assert _latencies("Warming up...\nAvg latency: 0.0213 seconds\n") == []
