"""A throughput gain said as a factor, and a share of AR's throughput.

"MTP gives 1.4x higher throughput" and "throughput is 2x higher with EAGLE3 enabled" gave no
speedup, where "60% higher throughput" did; "EAGLE3 reaches 92% of AR throughput" none, where
"of baseline throughput" did. A change between two runs, another run, the prefill or the
drafter off stay none.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text,factor", [
    ("MTP gives 1.4x higher throughput", 1.4),
    ("throughput is 2x higher with EAGLE3 enabled", 2.0),
    ("EAGLE3 reaches 92% of AR throughput", 0.92),
    ("EAGLE3 runs at 0.85x the autoregressive throughput", 0.85),
])
def test_a_factor_or_a_share_is_a_speedup(text, factor):
    assert _speedups(text) == [factor]


@pytest.mark.parametrize("text", [
    "after fixing the vocab, EAGLE3 gives 1.4x higher throughput",
    "2x higher throughput than eagle-2 with EAGLE3",
    "prefill throughput is 2x higher with MTP",
    "8x H100 gives 3x higher throughput",
    "throughput is 2x higher without MTP",
])
def test_no_speedup_over_the_run_without_speculation(text):
    assert _speedups(text) == []
