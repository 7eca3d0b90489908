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
