"""analyze: "(vanilla run 140 tok/s)", "The baseline run gives 140 tok/s" are baseline readings.

"vanilla: 140 tok/s" and "baseline throughput 140 tok/s" were read as the baseline, but with
"run" (or "server", "runs at", "gets") between the word and the number the reading was a plain
throughput: "EAGLE-3 gives 95 tok/s (vanilla run 140 tok/s)" gave two throughputs and no
baseline, so the run that shows EAGLE-3 slower than without it had no baseline to compare with.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


def _read(text):
    return sorted((m.name, m.value) for m in extract_metrics(text))


@pytest.mark.parametrize("text", [
    "EAGLE-3 gives 95 tok/s (vanilla run 140 tok/s).",
    "EAGLE-3 95 tok/s (baseline run 140 tok/s)",
    "Vanilla run: 140 tok/s; EAGLE-3 run: 95 tok/s.",
    "The vanilla server gets 140 tok/s and EAGLE-3 95 tok/s.",
])
def test_the_baseline_and_the_eagle_reading(text):
    assert _read(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


@pytest.mark.parametrize("text", ["The baseline run gives 140 tok/s.", "Vanilla runs at 140 tok/s."])
def test_a_baseline_alone(text):
    assert _read(text) == [("baseline_throughput", 140.0)]


@pytest.mark.parametrize("text", ["The EAGLE-3 run gives 95 tok/s.", "The server gets 95 tok/s."])
def test_a_run_without_the_baseline_word_is_a_throughput(text):
    assert _read(text) == [("throughput", 95.0)]
