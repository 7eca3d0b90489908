"""Round 30: real prose about EAGLE speedups, read wrong or not at all.

- "k=2 is 36% faster and k=4 is 28% faster than vanilla." (vllm-project/vllm#16035, a comment
  under the V1 EAGLE loading PR): both runs share the one "than vanilla"; the 36% was lost.
- "EAGLE-3 is ~1.9x vs baseline (156 -> 297 tok/s)": the arrow goes from the baseline to the
  run with EAGLE-3, as "from 156 to 297" does; the parenthesis after "vs baseline" was read as
  "ours vs the baseline" whatever its joiner, so 297 became the baseline and 156 EAGLE-3's (a
  1.9x speedup read next to a slowdown)."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return [(m.name, m.value) for m in scan_metrics(text, True)]


def test_two_runs_faster_than_one_baseline():
    assert _readings("k=2 is 36% faster and k=4 is 28% faster than vanilla.") == [("speedup", 1.36), ("speedup", 1.28)]
    # unchanged: against another drafter it is no speedup
    assert _readings("k=2 is 36% faster and k=4 is 28% faster than EAGLE-2.") == []


@pytest.mark.parametrize("text, readings", [
    ("On H200, EAGLE-3 is ~1.9x vs baseline (156 -> 297 tok/s).",
     [("baseline_throughput", 156.0), ("throughput", 297.0), ("speedup", 1.9)]),
    ("EAGLE-3 is ~1.9x vs baseline (156 to 297 tok/s)",
     [("baseline_throughput", 156.0), ("throughput", 297.0), ("speedup", 1.9)]),
    ("a 0.6x slowdown vs baseline (90 \u2192 54.8 tok/s)", [("baseline_throughput", 90.0), ("throughput", 54.8)]),
    # unchanged: "vs" inside the parenthesis sets ours, then the baseline the words named
    ("1.46x over the no-spec baseline (131.5 vs 90.1 tok/s)",
     [("throughput", 131.5), ("baseline_throughput", 90.1), ("speedup", 1.46)]),
])
def test_an_arrow_after_vs_baseline_goes_from_the_baseline(text, readings):
    assert _readings(text) == readings


@pytest.mark.parametrize("text, readings", [
    ("throughput: eagle3 131 tok/s vs base 104 tok/s", [("baseline_throughput", 104.0), ("throughput", 131.0)]),
    ("EAGLE-3: 131 tok/s, base: 104 tok/s", [("baseline_throughput", 104.0), ("throughput", 131.0)]),
    ("on the base image 104 tok/s", [("throughput", 104.0)]),  # unchanged: no base model
])
def test_the_base_model_set_against_the_drafter_is_the_baseline(text, readings):
    """"vs base 104 tok/s" read as a second run's throughput, and no baseline."""
    assert sorted(_readings(text)) == readings


def test_the_ratio_of_a_reading_and_its_baseline_is_a_speedup():
    """A smoke test's summary, "speculative 25.54 tok/s vs baseline 15.72 tok/s = 1.62x" (found on
    GitHub with the find_string tool): the 1.62x after "=" was no reading. Another quantity's ratio
    stays none."""
    assert sorted(_readings("  speculative 25.54 tok/s vs baseline 15.72 tok/s = 1.62x")) == [
        ("baseline_throughput", 15.72), ("speedup", 1.62), ("throughput", 25.54)]
    assert _readings("memory 25 vs baseline 15 = 1.6x") == []
