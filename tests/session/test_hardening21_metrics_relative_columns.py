"""A column of the change between runs is no run's reading.

ggml-org/llama.cpp#10664 (lhl, 2025-01-05) sets vLLM's benchmark_serving.py keys as rows against
two runs and their "% Difference": the 60.1 on the "Output token throughput (tok/s)" row was read
as a third run at 60.1 tok/s (and compared as one).
"""

from spec_debug.session.metrics import extract_metrics

LLAMA_10664 = """\
| Metric                          |   W7900 Q4_K_M |   W7900 Q4_K_M + 1.5B Q8 |   % Difference |
|:--------------------------------|---------------:|-------------------------:|---------------:|
| Memory Usage (GiB)              |          20.57 |                    22.12 |            7.5 |
| Successful requests             |          50    |                    50    |            0.0 |
| Benchmark duration (s)          |        1085.39 |                   678.21 |          -37.5 |
| Request throughput (req/s)      |           0.05 |                     0.07 |           60.0 |
| Output token throughput (tok/s) |          10.73 |                    17.18 |           60.1 |
| Total Token throughput (tok/s)  |          16.19 |                    25.92 |           60.1 |
| Mean TTFT (ms)                  |         247.8  |                   225.1  |           -9.2 |
"""


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def test_a_percent_difference_column_is_no_run():
    assert _readings(LLAMA_10664) == [("throughput", 10.73), ("throughput", 17.18)]


def test_a_speedup_row_under_run_columns_still_reads_factors():
    text = ("| | Baseline | EAGLE-3 |\n|---|---|---|\n| Output tok/s | 90.1 | 131.5 |\n| Speedup | 1.00x | 1.46x |\n")
    assert ("speedup", 1.46) in _readings(text) and ("throughput", 131.5) in _readings(text)
