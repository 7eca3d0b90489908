"""Round 30 review: the bare factors of 68b536f4/33a16a86 at their edges.

- A question was no speedup only where the method "gave" the factor: "Does EAGLE-3 give 1.8x
  over baseline?" and "Can EAGLE-3 reach 2x over baseline?" read 1.8 and 2; so did a wish or a
  possibility there ("EAGLE-3 can reach 2x over baseline", "... to get 1.8x vs no-spec"), none
  where the method gave the factor alone ("EAGLE-3 can reach 2x.").
- The ratio after "=" was read as a speedup whatever it was a ratio of: "accept length 3.2 vs
  baseline 1 = 3.2x" (the acceptance's) and "tp=2 vs baseline tp=1 = 2x GPUs" (another quantity's);
  and where the base model was the baseline ("eagle3 131 tok/s vs base 104 tok/s = 1.26x") it was none."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _speedups(text):
    return [m.value for m in scan_metrics(text, True) if m.name == "speedup"]


@pytest.mark.parametrize("text", [
    "Does EAGLE-3 give 1.8x over baseline?",
    "Can EAGLE-3 reach 2x over baseline?",
    "EAGLE-3 can reach 2x over baseline",
    "We tuned the draft to get 1.8x vs no-spec",
    "accept length 3.2 vs baseline 1 = 3.2x",
    "tp=2 vs baseline tp=1 = 2x GPUs",
])
def test_no_speedup(text):
    assert _speedups(text) == []


@pytest.mark.parametrize("text, factor", [
    ("EAGLE-3 is 1.8x over the baseline. Why is TTFT worse?", 1.8),
    ("EAGLE-3 is 1.8x over the baseline, why?", 1.8),
    ("speculative 25.54 tok/s vs baseline 15.72 tok/s = 1.62x", 1.62),
    ("EAGLE-3 reached 2x over baseline", 2.0),
    # the base model is the baseline (33a16a86), its ratio too (was none)
    ("eagle3 131 tok/s vs base 104 tok/s = 1.26x", 1.26),
])
def test_still_a_speedup(text, factor):
    assert _speedups(text) == [factor]
