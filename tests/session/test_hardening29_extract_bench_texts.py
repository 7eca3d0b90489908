"""Benchmark outputs of recent versions, as their tools print them.

GenAI-Perf's rich table wraps a statistic's name that is wider than its column onto the row
below, the other cells of that row blank (triton-inference-server/perf_analyzer#433, posted from
a narrow terminal): "Output Token Throughput" then "(tokens/sec)". The first row's name alone
is no key, and the run's output throughput (2.90 tok/s) was lost."""

from spec_debug.session.metrics import scan_metrics

# triton-inference-server/perf_analyzer#433, as posted (its "-->" mark on one cell left out)
GENAI_PERF_WRAPPED = """\
                                        NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┓
┃                           Statistic ┃       avg ┃       min ┃       max ┃       p99 ┃       p90 ┃       p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━┩
│                Request Latency (ms) │ 13,123.11 │ 13,123.11 │ 13,123.11 │ 13,123.11 │ 13,123.11 │ 13,123.11 │
│     Output Sequence Length (tokens) │     38.00 │     38.00 │     38.00 │     38.00 │     38.00 │     38.00 │
│      Input Sequence Length (tokens) │  1,024.00 │  1,024.00 │  1,024.00 │  1,024.00 │  1,024.00 │  1,024.00 │
│             Output Token Throughput │      2.90 │       N/A │       N/A │       N/A │       N/A │       N/A │
│                        (tokens/sec) │           │           │           │           │           │           │
│        Request Throughput (per sec) │      0.76 │       N/A │       N/A │       N/A │       N/A │       N/A │
│               Request Count (count) │      1.00 │       N/A │       N/A │       N/A │       N/A │       N/A │
└─────────────────────────────────────┴───────────┴───────────┴───────────┴───────────┴───────────┴───────────┘
"""


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text)]


def test_a_genai_perf_statistic_wrapped_onto_the_next_row_is_read():
    assert _readings(GENAI_PERF_WRAPPED) == [("e2e_latency_mean", 13123.11), ("throughput", 2.9),
                                             ("request_throughput", 0.76)]


def test_a_name_wrapped_over_three_rows_is_read():
    text = GENAI_PERF_WRAPPED.replace(
        "│             Output Token Throughput │      2.90 │",
        "│                        Output Token │      2.90 │").replace(
        "│                        (tokens/sec) │",
        "│                          Throughput │           │           │           │           │           │           │\n"
        "│                        (tokens/sec) │")
    assert ("throughput", 2.9) in _readings(text)


# triton-inference-server/perf_analyzer#437: genai-perf of the 24.06 SDK image, its latencies in ns
GENAI_PERF_NS = """\
                                                      LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃            Statistic ┃           avg ┃           min ┃           max ┃           p99 ┃           p90 ┃           p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ Request latency (ns) │ 4,110,623,430 │ 2,272,022,940 │ 5,252,536,691 │ 5,217,352,175 │ 4,900,691,530 │ 4,626,917,531 │
│     Num output token │           331 │           189 │           414 │           412 │           392 │           376 │
│      Num input token │           550 │           550 │           550 │           550 │           550 │           550 │
└──────────────────────┴───────────────┴───────────────┴───────────────┴───────────────┴───────────────┴───────────────┘
"""


def test_a_genai_perf_latency_in_ns_reads_in_ms():
    """Before: "Request latency (ns)" was no key, and the run's latency was lost."""
    found = scan_metrics(GENAI_PERF_NS)
    assert [(m.name, m.value, m.unit) for m in found] == [("e2e_latency_mean", 4110.623, "ms")]
    assert found[0].context == "genai-perf: Request latency (ns)"


def test_sglang_send_one_s_acc_length_is_read():
    """sgl-project/sglang#4716 posts send_one's output "acc_length=2.42" / "speed=100.43 token/s":
    the accept length was no reading."""
    found = [(m.name, m.value) for m in scan_metrics("acc_length=2.42\nspeed=100.43 token/s\n")]
    assert found == [("accept_length", 2.42), ("throughput", 100.43)]
    assert [(m.name, m.value) for m in scan_metrics("acc_length=3.12 speed=293.98\n")] == [("accept_length", 3.12)]


def test_a_sweep_line_s_acc_length_is_read():
    """A bench_speculative.py variant's line (found on GitHub): its accept length was lost."""
    line = "  acc_length=3.123, speed=45.67 tok/s/req, real_speed=182.3 tok/s, step_time=21.90 ms\n"
    assert ("accept_length", 3.123) in [(m.name, m.value) for m in scan_metrics(line)]
