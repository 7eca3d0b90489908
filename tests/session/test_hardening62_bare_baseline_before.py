"""metrics: the baseline's bare number said BEFORE ours ("vanilla 140; EAGLE-3 95 tok/s").

_BARE_BASELINE_NEXT reads "EAGLE-3 95 tok/s; vanilla 140" (the baseline's unit left out as ours
gives it), but the same pair in the other order gave no baseline, so a slowdown written that way
had no SD501. The label and bare number just before our reading are now read as its baseline.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize(("text", "base"), [
    ("vanilla 140; EAGLE-3 95 tok/s", 140.0),
    ("baseline 140, EAGLE-3 95 tok/s", 140.0),
    ("no-spec 140 / eagle3 95 tok/s", 140.0),
    ("Without speculation 140, with EAGLE-3 95 tok/s", 140.0),
    ("The vanilla run gets 140 vs EAGLE-3: 95 tok/s", 140.0),
    ("Baseline: ~138.5, and EAGLE-3 95 tok/s", 138.5),
])
def test_a_bare_baseline_before_the_reading(text, base):
    assert [(m.name, m.value) for m in scan_metrics(text, prose=True)] == [
        ("baseline_throughput", base), ("throughput", 95.0)]


@pytest.mark.parametrize("text", [
    "vanilla 3.1.2, EAGLE-3 95 tok/s",       # a version, no speed
    "The baseline was 8; EAGLE-3 95 tok/s",  # too far from ours to be the same run's speed
    "bs 140; EAGLE-3 95 tok/s",              # no baseline named
    "baseline: 140. EAGLE-3 95 tok/s",       # another sentence
    "vanilla 140 ms; EAGLE-3 95 tok/s",      # another unit
])
def test_no_baseline_where_none_is_said(text):
    assert [(m.name, m.value) for m in scan_metrics(text, prose=True)] == [("throughput", 95.0)]


def test_a_baseline_with_its_own_unit_is_read_once():
    assert [(m.name, m.value) for m in scan_metrics("vanilla 140 tok/s; EAGLE-3 95 tok/s", prose=True)] == [
        ("baseline_throughput", 140.0), ("throughput", 95.0)]
