"""bench_one_batch_server's result file (--result-filename) gives its run's readings.

sglang 0.5.23's BenchmarkResult.dump_to_jsonl (sglang/benchmark/one_batch_server.py) appends one
JSON line a run: "input_throughput", "output_throughput", "overall_throughput",
"last_gen_throughput", "acc_length" (0 without speculation), the numbers its stdout prints. It
counts no "completed" requests, so the saved-result reader took none of it: `cat result.jsonl`
gave no reading.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.session.metrics import scan_metrics


def _record(output_tput: float, acc: float, bs: int = 16) -> str:
    return json.dumps({"run_name": "eagle3", "batch_size": bs, "input_len": 1024, "output_len": 512,
                       "latency": 12.34, "input_throughput": 20000.0, "output_throughput": output_tput,
                       "overall_throughput": 2000.1, "last_ttft": 0.5, "last_gen_throughput": 680.0,
                       "acc_length": acc, "total_output_tokens": 8192, "num_early_stopped": 0,
                       "steady_state_output_throughput": 812.4, "steady_state_window_s": 9.87,
                       "cache_hit_rate": None})


def _readings(text: str, prose: bool) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, prose=prose)]


@pytest.mark.parametrize("prose", [False, True])
def test_a_record_gives_its_readings(prose):
    assert _readings(_record(700.5, 2.85) + "\n", prose) == [
        ("prefill_throughput", 20000.0), ("throughput", 700.5), ("total_throughput", 2000.1),
        ("last_gen_throughput", 680.0), ("accept_length", 2.85)]


@pytest.mark.parametrize("prose", [False, True])
def test_a_run_without_speculation_has_no_accept_length(prose):
    assert [n for n, _ in _readings(_record(350.25, 0.0) + "\n", prose)] == [
        "prefill_throughput", "throughput", "total_throughput", "last_gen_throughput"]


def test_each_line_is_a_run():
    text = _record(350.25, 0.0) + "\n" + _record(700.5, 2.85) + "\n"
    assert [v for n, v in _readings(text, False) if n == "throughput"] == [350.25, 700.5]
