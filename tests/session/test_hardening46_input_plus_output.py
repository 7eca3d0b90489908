"""A throughput of the prompt's and the output's tokens together is a total, no decode speed.

SGLang's bench_one_batch_server printed, for each batch (python/sglang/bench_one_batch_server.py
@ 00b08c49, run_one_case), "output throughput: 1421.33 token/s" and "(input + output) throughput:
31631.55 token/s": the second counts the 1024-token prompts too. It was read as a second decode
throughput of the run, twenty times the first, and could be compared with a baseline."""

from spec_debug.session.metrics import extract_metrics, scan_metrics

ONE_BATCH_SERVER = """batch size: 16
latency: 4.10 s
output throughput: 1421.33 token/s
(input + output) throughput: 31631.55 token/s
"""


def test_the_input_plus_output_line_is_a_total() -> None:
    assert [(m.name, m.value) for m in scan_metrics(ONE_BATCH_SERVER)] == [
        ("throughput", 1421.33), ("total_throughput", 31631.55)]


def test_in_prose_too() -> None:
    assert [(m.name, m.value) for m in extract_metrics("overall throughput (input+output): 31631.55 token/s, "
                                                       "decode 1421 tok/s")] == [
        ("total_throughput", 31631.55), ("throughput", 1421.0)]
