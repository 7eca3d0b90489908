"""The run without speculation named by a bare "without" or "w/o" after a comma is the baseline.

"w/ EAGLE3: 120 tok/s, w/o: 90 tok/s" and "... 150 tok/s, and without, 90 tok/s" gave two
speculative runs: the bare "without" counted only at the start of a sentence or after ";", and
"w/o" not at all. A comma opens its clause too. "without doubt" or "without, cuda graphs" (another
thing left out, no bare "without" before the number) is no baseline.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speeds(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True) if m.unit == "tok/s")


@pytest.mark.parametrize("text", [
    "w/ EAGLE3: 120 tok/s, w/o: 90 tok/s",
    "w/ EAGLE3: 120 tok/s, without: 90 tok/s",
    "with EAGLE3: 120 tok/s; w/o: 90 tok/s",
    "With EAGLE3 I get 120 tok/s, and without, 90 tok/s",
    "With EAGLE3 I get 120 tok/s; without, 90 tok/s",
])
def test_a_bare_without_names_the_baseline(text):
    assert _speeds(text) == [("baseline_throughput", 90.0), ("throughput", 120.0)]


@pytest.mark.parametrize("text", ["with EAGLE3, without, cuda graphs: 90 tok/s", "with EAGLE3 it is without doubt: 90 tok/s"])
def test_other_withouts_are_no_baseline(text):
    assert _speeds(text) == [("throughput", 90.0)]
