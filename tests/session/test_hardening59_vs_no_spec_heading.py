"""metrics: "EAGLE-3 vs no-spec: 95 vs 140 tok/s" names ours, then the baseline.

A heading that sets the run against the baseline keeps the pair in its order ("EAGLE-3 vs
baseline: 40 vs 60 tok/s" was read right). Named as speculation switched off ("vs no-spec:",
"slower than without speculative decoding:") the pair was read the other way round: 95 the
baseline, EAGLE-3's 140, a speedup where the user reported a slowdown, and no SD501.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text", [
    "EAGLE-3 vs no-spec: 95 vs 140 tok/s",
    "EAGLE-3 vs no-spec: 95 tok/s vs 140 tok/s",
    "EAGLE-3 is slower than without speculative decoding: 95 vs 140 tok/s",
    "EAGLE-3 vs without the draft: 95 vs 140 tok/s",
])
def test_the_heading_names_ours_first(text):
    assert sorted((m.name, m.value) for m in extract_metrics(text)) == [("baseline_throughput", 140.0),
                                                                       ("throughput", 95.0)]


def test_the_baseline_first_heading_is_unchanged():
    for text in ("no-spec vs spec: 90 tok/s vs 55 tok/s", "Baseline vs EAGLE-3: 90 vs 55 tok/s"):
        assert sorted((m.name, m.value) for m in extract_metrics(text)) == [("baseline_throughput", 90.0),
                                                                           ("throughput", 55.0)]


def test_the_reported_slowdown_is_sd501(tmp_path):
    w = _Writer("59590000-0000-4000-8000-0000000000d7", None, datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc))
    w.prompt("vLLM on gpu03 got slower with the drafter. EAGLE-3 vs no-spec: 95 vs 140 tok/s. Please look.")
    w.bash("ssh gpu03 'nvidia-smi --query-gpu=name --format=csv'", "name\nNVIDIA H100 80GB HBM3")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [f.evidence for f in a.findings if f.code == "SD501"] == [["[msg 0] 95 tok/s measured vs 140 tok/s baseline"]]
