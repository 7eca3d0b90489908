"""`vllm bench latency`'s reading quotes its line once.

The context of "Avg latency: 1.8342 seconds" (vllm/benchmarks/latency.py) is the line up to its
end, unit included; a " seconds" added after it read "Avg latency: 1.8342 seconds seconds" in the
postmortem and the JSON."""

from spec_debug.session.metrics import extract_metrics

LATENCY = """Avg latency: 1.8342 seconds
10% percentile latency: 1.8101 seconds
50% percentile latency: 1.8310 seconds
99% percentile latency: 1.9001 seconds
"""


def test_the_latency_line_is_quoted_as_printed() -> None:
    [reading] = extract_metrics(LATENCY)
    assert (reading.name, reading.value, reading.unit, reading.context) == (
        "e2e_latency_mean", 1834.2, "ms", "vllm bench latency: Avg latency: 1.8342 seconds")
