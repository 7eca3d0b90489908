"""A speedup or a throughput said as a wish, a requirement or a projection is no run's reading:
"we need at least 2x speedup to justify this" was a 2x speedup, "our throughput target is 2000
tok/s" a 2000 tok/s run (the target word after its noun; "target throughput" was already none).
A length renormalized over steps without drafting is the same run's, not a second reading."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text", [
    "We need at least 2x speedup to justify this; right now it is 1.3x.",
    "aiming for a 1.5x speedup before the release",
    "it should give ~2x speedup with EAGLE-3",
    "expecting a speedup of 2x from the drafter",
    "Our throughput target is 2000 tok/s.",
    "speed target: 50 tok/s",
])
def test_a_wish_is_no_reading(text):
    assert scan_metrics(text, True) == []


@pytest.mark.parametrize("text, reading", [
    ("EAGLE-3 gave a 2.1x speedup over AR", ("speedup", 2.1)),
    ("We got at least 2x speedup on every prompt", ("speedup", 2.0)),
    ("our throughput target is 2000 tok/s; we are at 1200 tok/s", ("throughput", 1200.0)),
    ("Target: 40 tok/s", ("throughput", 40.0)),  # the target model's speed
])
def test_a_measurement_stays(text, reading):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == [reading]


def test_a_renormalized_accept_length_is_not_a_second_run():
    # vLLM's spec_decode.py example as posted in vllm-project/vllm#24344 (an ngram run)
    out = ("num_drafts: 993\nnum_draft_tokens: 4960\nnum_accepted_tokens: 3562\nmean acceptance length: 4.59\n"
           "num_tokens_generated_without_sd: 821\nseq normalized acceptance length: 2.96\n"
           "--------------------------------------------------\nacceptance at token 0: 0.81\n")
    assert [(m.name, m.value) for m in scan_metrics(out)] == [("accept_length", 4.59)]  # was 4.59 and 2.96
