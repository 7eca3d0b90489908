"""A gain in throughput said as a percentage is a speedup when set against the run without speculation.

"EAGLE3 gives ~60% higher throughput" and "with EAGLE3, throughput up 60%" gave no speedup: only
a factor ("1.6x speedup") and "N% faster than vanilla" were read. A percentage of throughput is a
speedup (1 + N/100; "30% lower" 0.7) where the words set it against the run without speculation
("than the baseline") or the clause names the method and no change between runs. One drafter
against another ("17% higher throughput than eagle-2", as in vllm-project/vllm#24343's
"fr-spec is 17.79% faster than eagle-2"), a change to a run that speculates both times ("after
fixing the vocab mapping") or no method named at all is no speedup.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text, prose=True):
    return [m.value for m in extract_metrics(text, prose=prose) if m.name == "speedup"]


@pytest.mark.parametrize("text, value", [
    ("EAGLE3 gives ~60% higher throughput", 1.6),
    ("With EAGLE3, throughput up 60%.", 1.6),
    ("With the EAGLE-3 drafter throughput increased by 35% on MT-Bench.", 1.35),
    ("~60% higher throughput than the baseline", 1.6),
    ("eagle3 throughput 60% higher than without speculation", 1.6),
    ("Enabling speculative decoding: throughput is 30% lower at bs=64.", 0.7),
    ("Speculative decoding improved throughput by 45% over vanilla", 1.45),
    ("EAGLE3 throughput: +45% vs baseline", 1.45),
    ("Enabling MTP gave a 35% throughput boost", 1.35),
    ("EAGLE3 reduced throughput by 20% at batch 64", 0.8),
])
def test_a_percentage_of_throughput_is_a_speedup(text, value):
    assert _speedups(text) == [value]


@pytest.mark.parametrize("text", [
    "fr-spec gives 17% higher throughput than eagle-2",
    "After fixing the vocab mapping, EAGLE3 throughput went up 60%",
    "Raising batch size to 8 with EAGLE3: throughput up 60%",
    "throughput up 60%",
    "Disabling EAGLE3: throughput up 60%",
    "GPU util 60% higher throughput with bs 8",
    "throughput up 5% after enabling CUDA graphs with EAGLE3",
    "+16.2% more target work against -16.7% throughput on the EAGLE3 build",
    "EAGLE3 throughput is 95% of baseline",
])
def test_other_comparisons_are_no_speedup(text):
    assert _speedups(text) == []


def test_a_tool_output_is_not_scanned():
    assert _speedups("EAGLE3 gives ~60% higher throughput", prose=False) == []


def test_the_sentence_of_llama_cpp_10664():
    # ggml-org/llama.cpp#10664, the words the known miss came from; "40% lower TPOT" after it is
    # another quantity moving, no change made between runs
    text = ("Here are the updated topline results. For a W7900 (w/o FA since it's faster), speculative "
            "decoding gives us ~60% higher throughput, and 40% lower TPOT, at the cost of 7.5% additional memory usage.")
    assert _speedups(text) == [1.6]
