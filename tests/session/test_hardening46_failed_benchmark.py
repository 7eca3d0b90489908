"""A benchmark whose every request failed measured nothing.

`vllm bench serve` and SGLang's bench_serving against a server that answers every request with an
error print their result block with "Successful requests: 0" and 0.00 for each throughput and
latency (vLLM also warns "All requests failed"). The 0.00 tok/s was read as the run's throughput
and, beside a baseline, made SD501 report a 100 % slowdown where the fault was that nothing was
served."""

from spec_debug.session.metrics import scan_metrics

FAILED = """============ Serving Benchmark Result ============
Successful requests:                     0
Failed requests:                         200
Benchmark duration (s):                  1.02
Total input tokens:                      0
Total generated tokens:                  0
Request throughput (req/s):              0.00
Output token throughput (tok/s):         0.00
Total Token throughput (tok/s):          0.00
---------------Time to First Token----------------
Mean TTFT (ms):                          0.00
==================================================
"""


def test_a_benchmark_of_failed_requests_gives_no_reading() -> None:
    assert scan_metrics(FAILED) == []


def test_a_benchmark_that_served_is_read_as_before() -> None:
    served = FAILED.replace("Output token throughput (tok/s):         0.00",
                            "Output token throughput (tok/s):         812.40")
    assert [(m.name, m.value) for m in scan_metrics(served)] == [("throughput", 812.4)]
