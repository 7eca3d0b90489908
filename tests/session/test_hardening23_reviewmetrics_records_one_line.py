"""Two key=value records on one line each have their own label.

"tok/s=152.3" is read as a speed and the record's label before its first field may name the run
without speculation. The label was the line's first words only: "baseline tok/s=152.3  eagle3
tok/s=201.0" gave two baselines and no speculative run, so no comparison.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speeds(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True) if m.unit == "tok/s"]


@pytest.mark.parametrize("text", [
    "baseline tok/s=152.3  eagle3 tok/s=201.0",
    "baseline tok/s=152.3, eagle3 tok/s=201.0",
    "baseline: tok/s=152.3 | eagle3: tok/s=201.0",
])
def test_each_record_has_its_label(text):
    assert _speeds(text) == [("baseline_throughput", 152.3), ("throughput", 201.0)]


def test_a_field_of_a_list_is_no_label():
    assert _speeds("baseline  per_pos=[0.8, 0.6] accept_rate=0.61 tok/s=152.3") == [("baseline_throughput", 152.3)]
    assert _speeds("eagle3  per_pos=[0.8, 0.6] tok/s=201.0") == [("throughput", 201.0)]
