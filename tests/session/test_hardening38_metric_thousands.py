"""A structured reading written with a thousands comma is read whole.

The engine-line and ``Key: value`` readers took a number as ``\\d+(?:\\.\\d+)?``: vLLM's "Avg
generation throughput: 1,523.4 tokens/s" (as a run summary or a wrapper reformatting the
number quotes it) was read as 1.0 tok/s, and the prose scan then read the same words again as
a second reading of 1523.4; bench_serving's "Output token throughput (tok/s): 2,074.56" (an
agent's summary of the run, a pretty-printing wrapper) matched no line, and the run's
throughput, total throughput and end-to-end latency were lost.
"""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import scan_metrics
from tests.session.bash_session import write_bash_session

VLLM = ("INFO 01-01 10:00:00 [loggers.py:123] Engine 000: Avg prompt throughput: 12,040.0 tokens/s, "
        "Avg generation throughput: 1,523.4 tokens/s, Running: 8 reqs, Waiting: 0 reqs, "
        "GPU KV cache usage: 12.3%, Prefix cache hit rate: 0.0%\n")
SGLANG = ("[2026-01-01 10:00:00 TP0] Decode batch, #running-req: 64, #token: 91234, token usage: 0.31, "
          "accept len: 2.61, accept rate: 0.54, cuda graph: True, gen throughput (token/s): 1,204.55, #queue-req: 0\n")
BENCH = "\n".join([
    "============ Serving Benchmark Result ============",
    "Successful requests:                     100       ",
    "Total input tokens:                      1,234,567 ",
    "Request throughput (req/s):              8.10      ",
    "Output token throughput (tok/s):         2,074.56  ",
    "Total token throughput (tok/s):          102,119.68",
    "Accept length:                           3.12      ",
    "Mean E2E Latency (ms):                   1,480.12  ",
    "Mean TTFT (ms):                          120.50    ",
    "==================================================",
]) + "\n"


def _readings(text: str, prose: bool = False) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text, prose))


def test_vllm_stats_with_a_thousands_comma_are_one_reading_each_of_the_whole_number():
    assert _readings(VLLM) == [("prompt_throughput", 12040.0), ("throughput", 1523.4)]


def test_an_sglang_decode_line_with_a_thousands_comma_keeps_its_throughput():
    assert _readings(SGLANG) == [("accept_length", 2.61), ("accept_rate", 0.54), ("throughput", 1204.55)]


def test_bench_serving_lines_with_thousands_commas_are_read():
    assert _readings(BENCH) == [
        ("accept_length", 3.12), ("e2e_latency_mean", 1480.12), ("request_throughput", 8.1),
        ("throughput", 2074.56), ("total_throughput", 102119.68), ("ttft_mean", 120.5)]


def test_readings_without_commas_are_unchanged():
    plain = VLLM.replace("12,040.0", "12040.0").replace("1,523.4", "1523.4")
    assert _readings(plain) == [("prompt_throughput", 12040.0), ("throughput", 1523.4)]
    # the ", " between readings is no thousands comma
    assert _readings(SGLANG.replace("1,204.55", "1204.55")) == [
        ("accept_length", 2.61), ("accept_rate", 0.54), ("throughput", 1204.55)]


def test_a_session_reports_the_whole_numbers(tmp_path: Path):
    path = write_bash_session(tmp_path, "0d6f7f3e-2c55-4b8e-9d0a-38c1f4d2b7a1", "why is serving slow on gpu01?",
                              [("ssh gpu01 'tail -n 1 /var/log/vllm.log'", VLLM),
                               ("ssh gpu01 'python -m sglang.bench_serving --num-prompts 100'", BENCH)])
    throughputs = [(m.host, m.value) for m in analyze_path(path).metrics if m.name == "throughput"]
    assert throughputs == [("gpu01", 1523.4), ("gpu01", 2074.56)]
