"""analyze: "182 tok/s vs 140 tok/s for vanilla" names 140 the baseline.

"95 tok/s vs 140 tok/s vanilla" and "(baseline)" after a reading named it the baseline, but with
the preposition between ("for vanilla", "for the baseline run", "on vanilla", "in the baseline
run") both readings were plain throughputs: the agent's own comparison with the run without
speculation had no baseline in it.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


def _read(text):
    return sorted((m.name, m.value) for m in extract_metrics(text))


@pytest.mark.parametrize("text", [
    "EAGLE-3 gets 95 tok/s vs 140 tok/s for vanilla.",
    "EAGLE-3 gets 95 tok/s vs 140 tok/s for the baseline.",
    "95 tok/s, compared with 140 tok/s for the vanilla run.",
    "95 tok/s against 140 tok/s on vanilla",
    "95 tok/s vs 140 tok/s in the baseline run",
])
def test_the_baseline_after_a_preposition(text):
    assert _read(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


@pytest.mark.parametrize("text", ["182 tok/s for batch 1 vs 95 tok/s for batch 8.",
                                  "95 tok/s vs 140 tok/s for the old draft."])
def test_other_runs_stay_throughputs(text):
    assert [n for n, _ in _read(text)] == ["throughput", "throughput"]
