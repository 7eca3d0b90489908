"""A speedup of something else than decoding is no speedup of the drafter.

"a 60% speedup" became a speedup of 1.6 (like "1.6x speedup") and "throughput dropped 30%" one of
0.7; the words after and before say of what: "a 60% speedup in compile time with the new cache",
"a 30% speed-up of the tokenizer load", "2x speedup for model loading", "prefill throughput
dropped 30% with the EAGLE draft" (the prompt's stage, which a drafter does not speed up) are no
readings of the run with speculation against the one without.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("text", [
    "We saw a 60% speedup in compile time with the new cache; EAGLE3 is unaffected.",
    "The spec-decode branch gives a 30% speed-up of the tokenizer load.",
    "EAGLE3 draft: a 2x speedup for model loading from the local disk",
    "a 25% speedup in CUDA graph capture since the drafter's graphs are shared",
    "Prefill throughput dropped 30% with the EAGLE draft (prefill is not decode).",
    "With EAGLE3 on, prompt throughput is 20% lower.",
])
def test_a_speedup_of_another_task_is_none(text):
    assert _speedups(text) == []


@pytest.mark.parametrize("text, value", [
    ("a 60% speedup over baseline", 1.6),
    ("EAGLE3 gives a ~35% speed-up on MT-Bench", 1.35),
    ("a 1.5x speedup on the test prompts with the EAGLE3 draft", 1.5),
    ("1.6x speedup in throughput", 1.6),
    ("With EAGLE3, decode throughput up 60%.", 1.6),
])
def test_a_speedup_of_decoding_is_read(text, value):
    assert _speedups(text) == [value]
