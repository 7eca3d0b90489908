"""A saved benchmark result is an object that counts its completed requests (vllm/benchmarks/
serve.py and sglang's bench_serving.py both write "completed"). A config or SLO file naming the
same keys gave its goals as a run's readings, and a run whose every request failed (completed 0,
output_throughput 0.0) gave a 0 tok/s run."""

import json

from spec_debug.session.metrics import scan_metrics

_RUN = {"backend": "vllm", "duration": 41.27, "completed": 200, "request_throughput": 4.846,
        "output_throughput": 1240.6, "mean_ttft_ms": 88.2, "mean_e2el_ms": float("nan"),
        "median_e2el_ms": float("inf"), "ttfts": [0.08] * 200, "itls": [[0.011] * 50] * 200,
        "generated_texts": ['the "output_throughput": 5 key'] * 200}


def test_a_config_naming_the_keys_is_no_result():
    slo = {"model": "meta-llama/Llama-3.1-8B-Instruct", "output_throughput": 2000, "mean_ttft_ms": 500}
    assert scan_metrics(json.dumps(slo, indent=2)) == []


def test_a_run_with_no_request_completed_is_no_result():
    failed = {**_RUN, "completed": 0, "request_throughput": 0.0, "output_throughput": 0.0}
    assert [m for m in scan_metrics(json.dumps(failed)) if m.name == "throughput"] == []


def test_a_detailed_result_with_nan_and_per_request_arrays():
    # --save-detailed adds per-request arrays; NaN/Infinity (json.dumps of an empty mean) are no readings
    readings = {(m.name, m.value) for m in scan_metrics(json.dumps(_RUN))}
    assert readings == {("request_throughput", 4.846), ("throughput", 1240.6), ("ttft_mean", 88.2)}
