"""analyze: "EAGLE-3 95 tok/s; vanilla 140." gives 140 as the baseline.

"EAGLE-3 95 tok/s; vanilla 140 tok/s." named the baseline, but people leave the unit out of the
second number when the first gave it: "vanilla 140.", "baseline: 140.", "vs vanilla 140", "95
tok/s with EAGLE-3, 140 without." read one throughput and no baseline, so the slowdown had no
baseline (no SD501). The baseline's bare number ending its clause right after our reading is now
read with our unit; a number with a unit of its own ("140 ms"), a version, a list of sizes or a
number far from ours (a batch size) is none.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


def _read(text):
    return sorted((m.name, m.value) for m in extract_metrics(text))


@pytest.mark.parametrize("text", ["EAGLE-3 95 tok/s; vanilla 140.", "EAGLE-3 95 tok/s, vanilla 140", "EAGLE-3: 95 tok/s, baseline: 140.",
                                  "EAGLE-3 95 tok/s vs vanilla 140.", "EAGLE-3 95 tok/s vs the baseline 140.",
                                  "95 tok/s with EAGLE-3, 140 without.", "95 tok/s with EAGLE-3; without it 140.",
                                  "EAGLE-3 95 tok/s; vanilla 140, both at bs=1."])
def test_the_bare_number_is_the_baseline(text):
    assert _read(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


def test_the_number_is_read_not_made_up():
    assert _read("EAGLE-3 61.5 tok/s; vanilla 88.") == [("baseline_throughput", 88.0), ("throughput", 61.5)]


@pytest.mark.parametrize("text", ["EAGLE-3 95 tok/s; vanilla 140 ms TTFT.", "EAGLE-3 95 tok/s; vanilla 3.1.2 installed.",
                                  "EAGLE-3 95 tok/s; vanilla 4, 8 and 16.", "EAGLE-3 95 tok/s, 140 with draft.",
                                  "EAGLE-3 95 tok/s; vanilla 1.", "EAGLE-3 95 tok/s; the run took 140."])
def test_no_baseline(text):
    assert _read(text) == [("throughput", 95.0)]


def test_the_session_shows_the_slowdown(tmp_path):
    from tests.session.test_hardening48_stated_root_cause import _session

    a = _session(tmp_path, "Measured: EAGLE-3 95 tok/s; vanilla 140.")
    assert "SD501" in [f.code for f in a.findings]
    assert [(m.name, m.value) for m in a.metrics if m.name.endswith("throughput")] == [("baseline_throughput", 140.0),
                                                                                       ("throughput", 95.0)]
