"""Today's new speedup readings, on what they must leave alone.

- A decode latency's factor with the drafter on is a speedup ("TPOT is 13.6x lower with MTP on"),
  not against another time ("2x lower with MTP than yesterday") nor of the prefill ("prefill
  latency 2x higher with EAGLE-3", the first token's time, as TTFT already was none).
- A bare "speedup: N.N" in a text about drafting is a factor; "speedup: 0.5B draft" is a size.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text", [
    "latency is 2x lower with MTP than yesterday",
    "prefill latency 2x higher with EAGLE-3",
    "MTP speedup: 0.5B draft helps",
])
def test_no_speedup(text):
    assert _speedups(text) == []


@pytest.mark.parametrize("text, value", [
    ("TPOT is 13.6x lower with MTP on", 13.6),
    ("decode latency 2x lower with EAGLE-3 than without it", 2.0),
    ("EAGLE-3 speedup = 2.05", 2.05),
])
def test_still_a_speedup(text, value):
    assert _speedups(text) == [value]
