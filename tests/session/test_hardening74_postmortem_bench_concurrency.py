"""Postmortem Impact: a `bench_serving --num-prompts 200` run (no --max-concurrency, the default
infinite request rate: every prompt is sent at once, 200 requests in flight) was compared with a
server log's Decode batch lines read at `#running-req: 1`: "Throughput went from 61.2 tok/s to
1234.56 tok/s" with nothing changed between them, a twentyfold rise that was only the load. Such
a benchmark now ran at a concurrency of its number of prompts, and is compared only with readings
of that concurrency (or of none stated); the same benchmark at --max-concurrency 1, or with one
prompt, is compared with the batch-1 log as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.baselines import reading_row
from spec_debug.session.postmortem import postmortem_view
from tests.session.bash_session import write_bash_session

# SGLang's scheduler line (python/sglang/srt/managers/scheduler_metrics_mixin.py, log_decode_stats)
_DECODE = ("[2026-03-02 08:1{i}:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: "
           "2.10, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 61.20, #queue-req: 0")
_BENCH = "\n".join([
    "============ Serving Benchmark Result ============",
    "Backend:                                 sglang",
    "Traffic request rate:                    inf",
    "Successful requests:                     200",
    "Output token throughput (tok/s):         {}",
    "=================================================="])


def _throughput_row(tmp_path: Path, flags: str, value: str) -> dict:
    path = write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", [
        ("ssh gpu01 'tail -n 4 /var/log/sglang/server.log'", "\n".join(_DECODE.format(i=i) for i in range(4))),
        (f"ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --port 30000 {flags}'", _BENCH.format(value)),
    ])
    impact = postmortem_view(analyze_path(path))["impact"]
    return next(r for r in impact["rows"] if r["name"] == "throughput")


def test_all_prompts_at_once_is_not_compared_with_one_request(tmp_path: Path) -> None:
    row = _throughput_row(tmp_path, "--num-prompts 200", "1234.56")
    assert (row["before"], row["before_seq"], row["after"], row["after_seq"], row["readings"]) == \
        (1234.56, 4, 1234.56, 4, 1)


@pytest.mark.parametrize("flags", ["--num-prompts 200 --max-concurrency 1", "--num-prompts 1", "--num_prompts=1"])
def test_one_request_at_a_time_is_compared(tmp_path: Path, flags: str) -> None:
    row = _throughput_row(tmp_path, flags, "72.4")
    assert (row["before"], row["before_seq"], row["after"], row["after_seq"], row["readings"]) == \
        (61.2, 2, 72.4, 4, 2)


def test_the_row_of_a_benchmark() -> None:
    bench = "python -m sglang.bench_serving --backend sglang --num-prompts 200"
    assert reading_row("Output token throughput (tok/s): 1234.56", 1234.56, bench).key == "200"
    # bounded by a finite rate or a concurrency: the prompts are no row
    assert reading_row("Output token throughput (tok/s): 1234.56", 1234.56, bench + " --request-rate 4").key is None
    assert reading_row("Output token throughput (tok/s): 1234.56", 1234.56, bench + " --max-concurrency 8").key == "8"
    assert reading_row("Output token throughput (tok/s): 1234.56", 1234.56, "python bench.py").key is None
