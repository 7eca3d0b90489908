"""SGLang's Decode batch lines under ragged verify's CAP_ACCEPT mode keep their accept length.

sglang 0.5.23 (python/sglang/srt/managers/scheduler_components/metrics_reporter.py,
report_decode_stats) writes "accept len: A, accept rate: R, " and then, when the mode
SGLANG_RAGGED_VERIFY_MODE=cap_accept is on, "cap len: C, block accept len: B, " before the graph
flag. "accept len: " is the tail of "block accept len: ": the mean accept length was the mean of
A and B together (2.50 and 2.70 with 3.70 and 3.90 read 3.2 instead of 2.6).
"""

import re

from spec_debug.session.metrics import scan_metrics

CAP_ACCEPT_LOG = """\
[2026-11-02 10:11:12] Decode batch, #running-req: 4, #token: 2048, token usage: 0.02, accept len: 2.50, accept rate: 0.38, cap len: 1.20, block accept len: 3.70, cuda graph: True, gen throughput (token/s): 210.33, #queue-req: 0
[2026-11-02 10:11:14] Decode batch, #running-req: 4, #token: 2304, token usage: 0.02, accept len: 2.70, accept rate: 0.42, cap len: 1.10, block accept len: 3.90, cuda graph: True, gen throughput (token/s): 220.10, #queue-req: 0
"""


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in scan_metrics(text))


def test_the_block_accept_length_is_not_the_accept_length():
    assert _readings(CAP_ACCEPT_LOG) == [("accept_length", 2.6, "tokens"), ("accept_rate", 0.4, "ratio"),
                                         ("throughput", 215.22, "tok/s")]


def test_a_line_without_the_cap_fields_is_read_as_before():
    log = re.sub(r"cap len: [\d.]+, block accept len: [\d.]+, ", "", CAP_ACCEPT_LOG)
    assert "cap len" not in log
    assert _readings(log) == [("accept_length", 2.6, "tokens"), ("accept_rate", 0.4, "ratio"),
                              ("throughput", 215.22, "tok/s")]


def test_a_line_on_an_npu_with_the_cap_fields():
    # the flag's label is the device's graph ("npu graph", "cpu graph", "musa graph")
    log = CAP_ACCEPT_LOG.replace("cuda graph", "npu graph")
    assert _readings(log) == [("accept_length", 2.6, "tokens"), ("accept_rate", 0.4, "ratio"),
                              ("throughput", 215.22, "tok/s")]
