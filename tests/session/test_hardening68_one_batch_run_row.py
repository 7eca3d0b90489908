"""bench_one_batch's stage lines are of the batch size its step lines state.

sglang 0.5.23 sglang/benchmark/one_batch.py (latency_test_run_once) prints a run as "Prefill.
latency: ..., throughput: ... token/s", "Decode {i}. Batch size: {batch_size}, latency: ..." for
its first steps, "Decode.  median latency: ..., median throughput: ... token/s" and "Total.
latency: ...", one run per value of --batch-size. Before: the readings (read from the stage lines
only) named no row, and `--batch-size 1 16` names none either (several values), so the
batch-size-1 run's median decode throughput was compared with a baseline of any concurrency. Now
each stage reading carries its run's batch size."""

from __future__ import annotations

from spec_debug.session.baselines import row_key
from spec_debug.session.metrics import scan_metrics


def _run(bs: int, prefill: float, decode: float, total: float, steps: int = 5) -> str:
    lines = [f"Prefill. latency: 0.05000 s, throughput: {prefill:9.2f} token/s"]
    lines += [f"Decode {i}. Batch size: {bs}, latency: 0.00800 s, throughput: {decode + i:9.2f} token/s"
              for i in range(steps)]
    lines += [f"Decode.  median latency: 0.00800 s, median throughput: {decode:9.2f} token/s",
              f"Total. latency:  2.100 s, throughput: {total:9.2f} token/s"]
    return "\n".join(lines) + "\n"


def _rows(text: str) -> list[tuple[str, float, str | None]]:
    return [(m.name, m.value, row_key(m.context, m.value)) for m in scan_metrics(text)]


def test_each_run_is_of_its_batch_size() -> None:
    text = "Warmup ...\n" + _run(1, 20000, 125.0, 600.0) + "Benchmark ...\n" + _run(1, 21000, 126.0, 610.0) \
        + _run(16, 90000, 1800.0, 9000.0)
    assert _rows(text) == [
        ("prefill_throughput", 20000.0, "1"), ("throughput", 125.0, "1"), ("total_throughput", 600.0, "1"),
        ("prefill_throughput", 21000.0, "1"), ("throughput", 126.0, "1"), ("total_throughput", 610.0, "1"),
        ("prefill_throughput", 90000.0, "16"), ("throughput", 1800.0, "16"), ("total_throughput", 9000.0, "16")]


def test_a_run_without_step_lines_states_no_row() -> None:
    # output_len 1: no decode step, no median line; the next run's step lines are not its
    text = _run(4, 20000, 125.0, 600.0, steps=0) + _run(16, 90000, 1800.0, 9000.0)
    assert _rows(text) == [
        ("prefill_throughput", 20000.0, None), ("throughput", 125.0, None), ("total_throughput", 600.0, None),
        ("prefill_throughput", 90000.0, "16"), ("throughput", 1800.0, "16"), ("total_throughput", 9000.0, "16")]


def test_stage_lines_cut_from_their_prefill_state_no_row() -> None:
    # `tail -2` of a run: its median and Total lines only
    text = "\n".join(_run(16, 90000, 1800.0, 9000.0).splitlines()[-2:]) + "\n"
    assert _rows(text) == [("throughput", 1800.0, None), ("total_throughput", 9000.0, None)]
