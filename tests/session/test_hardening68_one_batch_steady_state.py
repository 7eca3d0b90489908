"""bench_one_batch_server's steady-state line is no second throughput of its run.

sglang 0.5.23's bench_one_batch_server (sglang/benchmark/one_batch_server.py, run_one_case) prints,
after "output throughput: X tok/s", "steady-state output throughput: X tok/s over a Y s full-batch
window": the same run's decode speed measured over another window. The prose scan read it as a
second `throughput` beside the output throughput; the run's one reading is its output throughput
(the one its summary table and older versions' reports give).
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


def _report(output_tput: float, steady: str | None) -> str:
    lines = ["batch size: 16", "input_len: 1024", "output_len: 512", "latency: 12.34 s",
             "input throughput: 20000.00 tok/s", f"output throughput: {output_tput:.2f} tok/s",
             "last_ttft: 0.50 s", "last generation throughput: 680.00 tok/s", "acc_length: 2.85 ",
             "total output tokens: 8192 (requested 8192)", "early-stopped requests: 0/16"]
    if steady is not None:
        lines.append(steady)
    return "\n".join(lines) + "\n"


def _readings(text: str, prose: bool) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, prose=prose)]


@pytest.mark.parametrize("prose", [False, True])
def test_steady_state_line_is_no_second_throughput(prose):
    text = _report(700.5, "steady-state output throughput: 812.40 tok/s over a 9.87 s full-batch window")
    assert _readings(text, prose) == [("prefill_throughput", 20000.0), ("throughput", 700.5),
                                      ("last_gen_throughput", 680.0), ("accept_length", 2.85)]


@pytest.mark.parametrize("prose", [False, True])
def test_readings_follow_the_output_throughput_not_the_steady_one(prose):
    text = _report(415.25, "steady-state output throughput: 530.00 tok/s over a 3.20 s full-batch window")
    tputs = [value for name, value in _readings(text, prose) if name == "throughput"]
    assert tputs == [415.25]


@pytest.mark.parametrize("prose", [False, True])
def test_no_window_warning_reads_nothing_more(prose):
    warning = ("WARNING: no steady-state full-batch window (a request finished before the last one started "
               "decoding); steady-state metrics are n/a.")
    assert _readings(_report(700.5, warning), prose) == _readings(_report(700.5, None), prose)


def test_each_run_of_a_sweep_keeps_one_throughput():
    text = (_report(700.5, "steady-state output throughput: 812.40 tok/s over a 9.87 s full-batch window")
            + _report(350.0, "steady-state output throughput: 401.10 tok/s over a 4.50 s full-batch window"))
    tputs = [value for name, value in _readings(text, True) if name == "throughput"]
    assert tputs == [700.5, 350.0]
