"""A serving benchmark's saved result printed with cat: `vllm bench serve --save-result` writes
one JSON object (vllm/benchmarks/serve.py), SGLang's bench_serving appends one JSON line per run
to --output-file (python/sglang/bench_serving.py). Their keys are the readings the printed
summaries give (output throughput, TTFT, TPOT, ITL, E2E latency, acceptance); none was read."""

import json

from spec_debug.session.metrics import scan_metrics

_VLLM = {"date": "20261201-101112", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-8B-Instruct",
         "num_prompts": 200, "request_rate": "inf", "max_concurrency": 16, "duration": 41.27, "completed": 200,
         "total_input_tokens": 45123, "total_output_tokens": 51200, "request_throughput": 4.846,
         "request_goodput": None, "output_throughput": 1240.6, "total_token_throughput": 2333.9,
         "max_output_tokens_per_s": 1520.0, "mean_ttft_ms": 88.2, "median_ttft_ms": 71.4, "std_ttft_ms": 30.1,
         "p99_ttft_ms": 190.3, "mean_tpot_ms": 11.9, "median_tpot_ms": 11.5, "mean_itl_ms": 24.6,
         "median_itl_ms": 22.0, "mean_e2el_ms": 3125.7, "median_e2el_ms": 3080.1, "p99_e2el_ms": 3490.2,
         "spec_decode_acceptance_rate": 62.4, "spec_decode_acceptance_length": 2.87,
         "spec_decode_num_drafts": 17800, "spec_decode_per_position_acceptance_rates": [0.81, 0.63, 0.43]}


def _readings(text):
    return {(m.name, m.value, m.unit) for m in scan_metrics(text)}


def test_vllm_s_saved_result():
    for text in (json.dumps(_VLLM), json.dumps(_VLLM, indent=2)):  # as written, and through `jq .`
        assert _readings(text) == {
            ("request_throughput", 4.846, "req/s"), ("throughput", 1240.6, "tok/s"),
            ("total_throughput", 2333.9, "tok/s"), ("ttft_mean", 88.2, "ms"), ("ttft_median", 71.4, "ms"),
            ("tpot_mean", 11.9, "ms"), ("tpot_median", 11.5, "ms"), ("itl_mean", 24.6, "ms"),
            ("itl_median", 22.0, "ms"), ("e2e_latency_mean", 3125.7, "ms"), ("e2e_latency_median", 3080.1, "ms"),
            ("accept_rate", 62.4, "%"), ("accept_length", 2.87, "tokens")}


def test_sglang_s_result_lines_are_one_run_each():
    run = {"backend": "sglang", "completed": 200, "request_throughput": 5.68, "output_throughput": 2909.1,
           "total_throughput": 8727.3, "mean_e2e_latency_ms": 1402.5, "mean_ttft_ms": 61.2, "accept_length": 3.12}
    plain = {**run, "output_throughput": 1678.7, "total_throughput": 5036.1, "accept_length": None}
    found = scan_metrics(f"$ cat sglang_1201.jsonl\n{json.dumps(run)}\n{json.dumps(plain)}\n")
    assert [m.value for m in found if m.name == "throughput"] == [2909.1, 1678.7]
    assert [m.value for m in found if m.name == "accept_length"] == [3.12]  # null: no drafter
    assert ("e2e_latency_mean", 1402.5, "ms") in {(m.name, m.value, m.unit) for m in found}


def test_no_result_without_its_numbers():
    # the benchmark's source listed, and an object that is no run's result
    assert _readings('result = {\n    "output_throughput": metrics.output_throughput,\n    "mean_ttft_ms": x,\n}') == set()
    assert _readings('{"mean_ttft_ms": 50, "max_concurrency": 16}') == set()
