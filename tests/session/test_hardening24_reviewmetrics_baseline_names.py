"""'Nx faster than' the run without speculation, by the many names people give it.

Today's rule that 'than expected', 'than before the fix' and 'than vLLM' are no speedups listed
the baseline's names it still accepted, and every other name lost its speedup: "EAGLE-3 is 2.5x
faster than the target model", "than the base model", "than auto-regressive decoding", "than
sequential decoding", "than running without speculation" had all been read before. The rule now
names what is no baseline (an expectation, a time, another engine, GPU or version) instead.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speedups(text):
    return [m.value for m in extract_metrics(text, prose=True) if m.name == "speedup"]


@pytest.mark.parametrize("baseline", [
    "the target model",
    "the base model",
    "the original model",
    "auto-regressive decoding",
    "sequential decoding",
    "running without speculation",
    "with speculation disabled",
    "the target model by itself",
    "Llama-3.1-8B alone",
    "token-by-token decoding",
    "conventional decoding",
    "the same model without MTP",
    "vLLM without speculation",
    "SGLang's baseline",
    "the H100 alone",
])
def test_the_baseline_by_another_name_keeps_its_speedup(baseline):
    assert _speedups(f"EAGLE-3 decoding is 2.5x faster than {baseline}.") == [2.5]


@pytest.mark.parametrize("other", [
    "expected",
    "before the fix",
    "vLLM",
    "TGI",
    "last week",
    "yesterday",
    "the previous version",
    "the old build",
    "the H100",
    "0.10.2",
    "it was before",
    "it should be",
])
def test_an_expectation_a_time_or_another_engine_is_still_no_speedup(other):
    assert _speedups(f"EAGLE-3 decoding is 2.5x faster than {other}.") == []


def test_a_throughput_factor_over_the_target_model_is_a_speedup():
    assert _speedups("MTP gives 1.4x higher throughput than the target model") == [1.4]
