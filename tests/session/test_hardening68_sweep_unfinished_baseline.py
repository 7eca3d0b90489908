"""bench_speculative.py's steps=0 run is the baseline's though no run printed its Finish line.

sgl-project/sglang scripts/playground/bench_speculative.py prints "Start i=N: batch_size=...,
steps=0, ..." and runs sglang.bench_serving's benchmark() twice (a "Serving Benchmark Result"
block each) on a server without speculation, then reads the server's step_time_dict and prints
"Finish i=N: ...". Before: the run was cut off from the drafting ones only where some run's Finish
line was in the text, so a sweep that crashed in its steps=0 run (a traceback where the Finish
line would be) gave that run's blocks as drafting `throughput`s and its "Accept length: 1.00" as
an accept length. Now the Start lines alone cut the runs."""

from __future__ import annotations

from spec_debug.session.metrics import scan_metrics
from tests.session.test_hardening68_sweep_serving_baseline import _block, _run

CRASH = ("Traceback (most recent call last):\n  File \"/work/bench_speculative.py\", line 120, in send_one_batch\n"
         "    step_time = np.percentile(server_info[\"step_time_dict\"][str(batch_size)], 20)\n"
         "KeyError: '1'\n")


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text)
                  if m.name in ("throughput", "baseline_throughput", "accept_length"))


def _unfinished(i: int, bs: int, steps: int, topk: int, draft: int, tput: float, acc: float) -> str:
    run = _run(i, bs, steps, topk, draft, tput, acc, 1.0)
    return run[:run.index("Finish i=")] + CRASH


def test_a_crashed_steps0_run_is_the_baseline() -> None:
    assert _readings(_unfinished(0, 1, 0, 0, 0, 120.4, 1.0)) == [
        ("baseline_throughput", 108.36), ("baseline_throughput", 120.4)]


def test_a_crashed_drafting_run_after_a_crashed_steps0_run() -> None:
    text = _unfinished(0, 1, 0, 0, 0, 120.4, 1.0) + _unfinished(1, 1, 3, 1, 4, 95.2, 2.1)
    assert _readings(text) == [("accept_length", 2.1), ("accept_length", 2.1), ("baseline_throughput", 108.36),
                               ("baseline_throughput", 120.4), ("throughput", 85.68), ("throughput", 95.2)]


def test_an_unfinished_drafting_run_alone_keeps_its_names() -> None:
    assert _readings(_unfinished(1, 1, 3, 1, 4, 95.2, 2.1)) == [
        ("accept_length", 2.1), ("accept_length", 2.1), ("throughput", 85.68), ("throughput", 95.2)]


def test_blocks_without_a_start_line_are_read_whole() -> None:
    text = _block(1, 120.4, 1.0) + CRASH
    assert _readings(text) == [("accept_length", 1.0), ("throughput", 120.4)]
