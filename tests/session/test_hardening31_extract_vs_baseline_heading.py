"""Round 31: "EAGLE-3 vs baseline: 40 tok/s vs 60 tok/s" names the run, then the baseline.

The number right after "baseline:" was read as the baseline's and the next one as the run's, so
a run slower than its baseline (40 against 60 tok/s) read as a speedup (60 against 40) and SD501
stayed quiet. A heading that sets the run against the baseline ("EAGLE-3 vs baseline:", "slower
than the baseline:", "Compared to baseline:") gives the pair after it in its own order, as "1.46x
over the no-spec baseline (131.5 vs 90.1 tok/s)" does (round 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session.metrics import scan_metrics
from tests.session.test_hardening18_prose_baselines import _sd501


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text, True))


@pytest.mark.parametrize("text, readings", [
    ("EAGLE-3 vs baseline: 40 tok/s vs 60 tok/s", [("baseline_throughput", 60.0), ("throughput", 40.0)]),
    ("EAGLE-3 is slower than the baseline: 40 tok/s vs. 60 tok/s",
     [("baseline_throughput", 60.0), ("throughput", 40.0)]),
    ("EAGLE-3 vs baseline: 40 vs 60 tok/s", [("baseline_throughput", 60.0), ("throughput", 40.0)]),
    ("EAGLE-3 vs baseline: **40 tok/s** vs **60 tok/s**", [("baseline_throughput", 60.0), ("throughput", 40.0)]),
    ("Compared to baseline: 131.5 vs 90.1 tok/s", [("baseline_throughput", 90.1), ("throughput", 131.5)]),
    ("EAGLE-3 vs no-spec baseline: 131.5 tok/s vs 90.1 tok/s",
     [("baseline_throughput", 90.1), ("throughput", 131.5)]),
])
def test_the_heading_names_the_run_then_the_baseline(text, readings):
    assert _readings(text) == readings  # before: the two the other way round


@pytest.mark.parametrize("text, readings", [
    ("baseline: 60 tok/s vs 40 tok/s with EAGLE-3", [("baseline_throughput", 60.0), ("throughput", 40.0)]),
    ("Baseline: 90 tok/s vs EAGLE-3: 131 tok/s", [("baseline_throughput", 90.0), ("throughput", 131.0)]),
    ("EAGLE-3 vs baseline: 131.5 tok/s", [("baseline_throughput", 131.5)]),
])
def test_a_baseline_heading_alone_still_names_the_baseline(text, readings):
    assert _readings(text) == readings  # unchanged


def test_a_run_slower_than_its_baseline_is_reported(tmp_path: Path):
    evidence = _sd501(tmp_path, "EAGLE-3 vs baseline: 40 tok/s vs 60 tok/s")
    assert evidence == ["[msg 0] 40 tok/s measured vs 60 tok/s baseline"]  # before: none
