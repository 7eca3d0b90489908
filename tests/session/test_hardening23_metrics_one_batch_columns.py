"""SGLang bench_one_batch_server's newer report gives one run's speed three ways: one reading.

Its table has "output throughput (tok/s)", "decode-only throughput (tok/s)" and "steady
decode-only throughput (tok/s)" (python/sglang/bench_one_batch_server.py, get_report_summary):
three decode throughputs of one row read as three runs. The output throughput is kept, the one
the older reports (and a baseline run made with them) have; a table with only a decode-only column
keeps it.
"""

from spec_debug.session.metrics import extract_metrics

HEAD = ("| batch size | input len | latency (s) | input throughput (tok/s) | output throughput (tok/s) "
        "| decode-only throughput (tok/s) | steady decode-only throughput (tok/s) | acc length | ITL (ms) "
        "| input cost ($/1M) | output cost ($/1M) | cache hit rate |\n")
RULE = "| --- " * 12 + "|\n"
ROW = "| 1 | 1024 | 2.87 | 11592.73 | 191.31 | 195.20 | 197.01 | 3.21 | 5.23 | 0.06 | 3.62 | 0.00% |\n"


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=False))


def test_one_row_is_one_speed():
    assert _readings(HEAD + RULE + ROW) == [("accept_length", 3.21), ("throughput", 191.31)]


def test_a_decode_only_column_alone_is_read():
    table = "| batch size | decode-only throughput (tok/s) |\n|---|---|\n| 1 | 195.20 |\n"
    assert _readings(table) == [("throughput", 195.2)]
