"""SGLang's /metrics gauges polled several times in one command are one server's speed, not a sum.

An agent watching a server prints the same series again and again ("for i in 1 2 3; do curl -s
localhost:30000/metrics | grep -E 'gen_throughput|spec_accept'; sleep 5; done"). The data-parallel
ranks' speeds add up (one series a rank), and every line was taken for a rank of its own: three
polls of 100 tok/s read as a server at 300 tok/s.
"""

from spec_debug.session.metrics import extract_metrics

LABELS = '{model_name="meta-llama/Llama-3.1-8B-Instruct",engine_type="unified",tp_rank="0",pp_rank="0"}'


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=False))


def test_one_series_polled_is_its_mean():
    polls = "".join(f"sglang:gen_throughput{LABELS} {speed}\nsglang:spec_accept_length{LABELS} 2.5\n"
                    for speed in (100.0, 110.0, 90.0))
    assert _readings(polls) == [("accept_length", 2.5), ("throughput", 100.0)]


def test_ranks_still_add_up():
    ranks = "".join(f'sglang:gen_throughput{{model_name="m",dp_rank="{rank}"}} {speed}\n'
                    for rank, speed in ((0, 100.0), (1, 110.0)))
    assert _readings(ranks) == [("throughput", 210.0)]
