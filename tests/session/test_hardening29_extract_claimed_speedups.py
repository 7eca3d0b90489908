"""A speedup a source states is no run's. Agents and engineers quote the EAGLE README, its model
cards and the EAGLE-3 paper beside what their own run gave (sgl-project/sglang#5502 and #11948,
SafeAILab/EAGLE#209: "Maximum speedup I'm able to achieve is 3.18x, when speedup reported in the
paper is 4.4x"). Before, "The EAGLE-3 paper claims a 4.4x speedup ...; we measure 1.3x speedup"
gave two speedups, 4.4 and 1.3, and the README's "3x faster than vanilla decoding (13B)" one of 3."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _speedups(text):
    return [m.value for m in scan_metrics(text, True) if m.name == "speedup"]


@pytest.mark.parametrize("text", [
    # SafeAILab/EAGLE README's highlights, as quoted
    "According to the EAGLE README, EAGLE is 3x faster than vanilla decoding (13B).",
    "EAGLE-3 is 5.6x faster than vanilla decoding (13B) and 1.8x faster than EAGLE-1 (13B), per the model card.",
    "The README says EAGLE is 3x faster than vanilla decoding (13B).",
    "the 4.4x speedup from the paper is on A100",
    "In the paper, EAGLE-3 reaches a 4.4x speedup on MT-Bench",
    "Speculative decoding typically gives a 2-3x speedup at batch size 1",
    # vllm-project/vllm#9565, as posted
    "Even at low QPS, the performance is far from 2x speedup reported in the original eagle paper (light "
    "blue line is the original, the solid lines are with SD).",
])
def test_a_speedup_a_source_states_is_no_reading(text):
    assert _speedups(text) == []


@pytest.mark.parametrize("text, speedups", [
    ("The EAGLE-3 paper claims a 4.4x speedup on LLaMA3.1-8B; we measure 1.3x speedup", [1.3]),
    ("The paper reports a 4.4x speedup for LLaMA3.1-8B on MT-Bench, while our run gives a 1.3x speedup.", [1.3]),
    ("with EAGLE3 we get a 1.3x speedup, the paper says 4.4x", [1.3]),
    ("after reading the docs, EAGLE-3 gives a 1.3x speedup", [1.3]),
    ("EAGLE-3 gives a 1.3x speedup with flags from the docs", [1.3]),
    ("EAGLE-3 launched with the flags from the docs gives a 1.3x speedup", [1.3]),
    ("EAGLE-3 gives a 1.3x speedup, in line with the paper", [1.3]),
])
def test_the_run_s_own_speedup_beside_a_source_is_read(text, speedups):
    assert _speedups(text) == speedups
