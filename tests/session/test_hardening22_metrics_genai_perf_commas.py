"""GenAI-Perf's and AIPerf's console tables at 1000 tok/s and more.

rich prints the numbers with thousands commas ("│ Output Token Throughput (per sec) │ 1,082.84 │
N/A │ ..."), as the ai-dynamo/dynamo#402 example shows for its latencies: the row was not read, so
every run fast enough to need the comma lost its throughput, and only the request rate was left.
A table quoted in Markdown ("> " before each row) was not read at all, and AIPerf's units
("tokens/sec", "tokens/sec/user", "requests/sec"; ai-dynamo/aiperf) were not known.
"""

from spec_debug.session.metrics import scan_metrics

ROWS = [
    "                                    NVIDIA GenAI-Perf | LLM Metrics                                    ",
    "\u250f" + "\u2501" * 35 + "\u2533" + "\u2501" * 10 + "\u2533" + "\u2501" * 10 + "\u2513",
    "\u2503                         Statistic \u2503      avg \u2503      min \u2503",
    "\u2502          Time To First Token (ms) \u2502 1,385.48 \u2502   538.11 \u2502",
    "\u2502              Request Latency (ms) \u2502 4,278.64 \u2502 3,216.85 \u2502",
    "\u2502 Output Token Throughput (per sec) \u2502 1,082.84 \u2502      N/A \u2502",
    "\u2502      Request Throughput (per sec) \u2502     7.22 \u2502      N/A \u2502",
]


def _readings(text, prose=False):
    return sorted((m.name, m.value) for m in scan_metrics(text, prose))


def test_a_throughput_with_a_thousands_comma_is_read():
    assert _readings("\n".join(ROWS) + "\n") == [
        ("e2e_latency_mean", 4278.64), ("request_throughput", 7.22), ("throughput", 1082.84), ("ttft_mean", 1385.48)]


def test_the_table_quoted_in_markdown_is_read():
    quoted = "> ```\n" + "".join("> " + row + "\n" for row in ROWS) + "> ```\n"
    assert _readings(quoted, prose=True) == [
        ("e2e_latency_mean", 4278.64), ("request_throughput", 7.22), ("throughput", 1082.84), ("ttft_mean", 1385.48)]


def test_aiperfs_units_are_known():
    rows = ["\u2502 Output Token Throughput (tokens/sec) \u2502 2,541.04 \u2502 N/A \u2502",
            "\u2502 Output Token Throughput Per User (tokens/sec/user) \u2502 126.80 \u2502 98.10 \u2502",
            "\u2502 Request Throughput (requests/sec) \u2502 4.10 \u2502 N/A \u2502"]
    assert _readings("\n".join(rows) + "\n") == [
        ("per_user_throughput", 126.8), ("request_throughput", 4.1), ("throughput", 2541.04)]
