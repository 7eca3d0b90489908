"""The value said after "now" is the acceptance now only when it ends its clause ("...before the
upgrade, now 0.35", "now 3.3 tokens"): since c0776f6 a count there was read as one ("now 8 GPUs
are used" an accept length of 8, "now at 64 concurrency" a 64% acceptance rate, "now 2 of 3
runs fail" 2%)."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text, readings", [
    ("accept length 3.1 before the fix, now 8 GPUs are used", [("accept_length", 3.1)]),
    ("acceptance rate was 0.7 before we raised the batch, now at 64 concurrency", [("accept_rate", 0.7)]),
    ("acceptance rate was 70% before the upgrade, now 2 of 3 runs fail", [("accept_rate", 70.0)]),
    ("acceptance rate was 0.72 before the upgrade, now 0.35.", [("accept_rate", 0.72), ("accept_rate", 0.35)]),
    ("accept length 2.5 before fix, now 3.3 tokens", [("accept_length", 2.5), ("accept_length", 3.3)]),
])
def test_a_count_after_now_is_no_acceptance(text, readings):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == readings
