"""vLLM 0.8.3 to 0.10's SpecDecoding line gives its acceptance rate.

Those versions log the rate first, "SpecDecoding metrics: Draft acceptance rate: 62.5%, Mean
acceptance length: 2.88, Accepted: 560 tokens, ..." (vllm/v1/spec_decode/metrics.py then;
vllm-project/vllm#15902 and #16665 show the lines), where later ones write "Avg Draft acceptance
rate: R%" at the end. Only the "Avg" form was read: the rate of every run on those versions was
lost, and a 0.8.3 line (rate and counts, no length) gave nothing at all.
"""

from spec_debug.session.metrics import scan_metrics

LOG = """\
INFO 04-15 10:01:12 [loggers.py:87] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 92.1 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%
INFO 04-15 10:01:12 [metrics.py:85] SpecDecoding metrics: Draft acceptance rate: 62.5%, Mean acceptance length: 2.88, Accepted: 560 tokens, Drafted: 896 tokens, Per-position acceptance rate: 0.812, 0.625, 0.438
INFO 04-15 10:01:22 [metrics.py:85] SpecDecoding metrics: Draft acceptance rate: 57.5%, Mean acceptance length: 2.72, Accepted: 515 tokens, Drafted: 896 tokens, Per-position acceptance rate: 0.790, 0.570, 0.365
"""


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in scan_metrics(text))


def test_the_rate_first_line_gives_rate_and_length():
    # 1075 of 1792 drafted (the lines weighted by their counts; their plain mean is 60.0)
    assert _readings(LOG) == [("accept_length", 2.8, "tokens"), ("accept_rate", 59.99, "%"),
                              ("throughput", 92.1, "tok/s")]


def test_the_first_v1_line_with_only_rate_and_counts():
    line = "INFO 04-02 09:00:00 [metrics.py:62] SpecDecoding metrics: Draft acceptance rate: 100.0%, Accepted: 66 tokens, Drafted: 66 tokens\n"
    assert _readings(line) == [("accept_rate", 100.0, "%")]


def test_the_line_with_throughputs_of_september_2025():
    # vllm-project/vllm#24127's test result
    line = ("(APIServer pid=2236552) INFO 09-09 11:51:35 [metrics.py:96] SpecDecoding metrics: Draft acceptance rate: "
            "88.8%, Mean acceptance length: 5.44, Accepted throughput: 4.37 tokens/s, Drafted throughput: 4.92 tokens/s, "
            "Accepted: 262 tokens, Drafted: 295 tokens, Per-position acceptance rate: 0.983, 0.949, 0.915, 0.881, 0.712\n")
    assert _readings(line) == [("accept_length", 5.44, "tokens"), ("accept_rate", 88.8, "%")]


def test_the_newest_line_is_read_as_before():
    line = ("INFO 11-02 10:00:00 [metrics.py:97] SpecDecoding metrics: Mean acceptance length: 2.95, Accepted throughput: "
            "30.10 tokens/s, Drafted throughput: 45.00 tokens/s, Accepted: 301 tokens, Drafted: 450 tokens, "
            "Per-position acceptance rate: 0.800, 0.600, 0.400, Avg Draft acceptance rate: 66.9%\n")
    assert _readings(line) == [("accept_length", 2.95, "tokens"), ("accept_rate", 66.9, "%")]
