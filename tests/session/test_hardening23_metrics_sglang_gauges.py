"""SGLang's /metrics gauges are read: the accept length, rate and decode speed of a running server.

``curl localhost:30000/metrics`` on a server started with --enable-metrics prints Prometheus
gauges (python/sglang/srt/metrics/collector.py): "sglang:spec_accept_length" (accepted drafts plus
the bonus token a forward), "sglang:spec_accept_rate" (accepted over proposed drafts) and
"sglang:gen_throughput" (token/s). None was read. A gauge of 0 is an idle server's; several data
parallel ranks' speeds add up, their acceptance is averaged.
"""

from spec_debug.session.metrics import extract_metrics

LABELS = '{model_name="meta-llama/Llama-3.1-8B-Instruct",engine_type="unified",tp_rank="0",pp_rank="0"}'
SCRAPE = f"""# HELP sglang:spec_accept_length The average acceptance length of speculative decoding.
# TYPE sglang:spec_accept_length gauge
sglang:spec_accept_length{LABELS} 3.214
# HELP sglang:spec_accept_rate The average acceptance rate of speculative decoding (`accepted tokens / total draft tokens` in batch).
# TYPE sglang:spec_accept_rate gauge
sglang:spec_accept_rate{LABELS} 0.5535
# HELP sglang:gen_throughput The generation throughput (token/s).
# TYPE sglang:gen_throughput gauge
sglang:gen_throughput{LABELS} 254.31
# HELP sglang:num_running_reqs The number of running requests.
# TYPE sglang:num_running_reqs gauge
sglang:num_running_reqs{LABELS} 1.0
"""


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=False))


def test_the_gauges_are_read():
    assert _readings(SCRAPE) == [("accept_length", 3.214, "tokens"), ("accept_rate", 0.5535, "ratio"),
                                 ("throughput", 254.31, "tok/s")]


def test_an_idle_server_gives_nothing():
    idle = SCRAPE.replace(" 3.214", " 0.0").replace(" 0.5535", " 0.0").replace(" 254.31", " 0.0")
    assert _readings(idle) == []


def test_data_parallel_ranks():
    two = (f'sglang:gen_throughput{{model_name="m",dp_rank="0"}} 120.0\n'
           f'sglang:gen_throughput{{model_name="m",dp_rank="1"}} 130.0\n'
           f'sglang:spec_accept_length{{model_name="m",dp_rank="0"}} 3.0\n'
           f'sglang:spec_accept_length{{model_name="m",dp_rank="1"}} 3.4\n')
    assert _readings(two) == [("accept_length", 3.2, "tokens"), ("throughput", 250.0, "tok/s")]
