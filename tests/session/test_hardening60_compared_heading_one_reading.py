"""metrics: "Compared to no-spec: 95 tok/s" does not name 95 the baseline.

After a benchmark of the EAGLE-3 server printed 95 tok/s, the agent wrote "Compared to no-spec:
95 tok/s." The number after "no-spec:" was read as the baseline's, so the run's own 95 was taken
for the baseline (the benchmark's reading marked a baseline too) and the session had no reading
of the run at all. One reading after a "compared to/with ..." or "than ...:" heading may be
ours set against the baseline as well as the baseline's: no baseline now. A pair after the
heading is still read in its order (ours, then the baseline), and "EAGLE-3 vs baseline: 131.5
tok/s" still names the baseline (test_hardening31_extract_vs_baseline_heading).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.metrics import scan_metrics
from tests.session.incident_story import _Writer
from tests.session.test_hardening59_baseline_said_after import BENCH, EAGLE3, RESULT


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text, True))


@pytest.mark.parametrize("text", [
    "Compared to no-spec: 95 tok/s.",
    "Compared with the baseline: 95 tok/s.",
    "EAGLE-3 is slower than the no-spec baseline: 95 tok/s.",
    "Compared to without the draft: 95 tok/s.",
])
def test_one_reading_after_the_heading_is_no_baseline(text):
    assert _readings(text) == [("throughput", 95.0)]


@pytest.mark.parametrize("text", [
    "Compared to no-spec: 95 vs 140 tok/s.",
    "Compared with no-spec: 95 tok/s vs 140 tok/s.",
])
def test_a_pair_after_the_heading_is_ours_then_the_baseline(text):
    assert _readings(text) == [("baseline_throughput", 140.0), ("throughput", 95.0)]


def test_the_benchmarked_run_stays_the_run(tmp_path):
    w = _Writer("60600000-0000-4000-8000-0000000000a2", None, datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu07 is slow. Find out why.")
    w.bash(f"ssh ubuntu@gpu07 '{EAGLE3}'", "")
    w.bash(f"ssh ubuntu@gpu07 '{BENCH.format(port='30000')}'", RESULT.format(tput="95.0", accept="1.1"))
    w.say("Compared to no-spec: 95 tok/s.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(m.name, m.value, m.baseline) for m in a.metrics if m.source == "output" and m.name == "throughput"] == [
        ("throughput", 95.0, False)]
    assert not [m for m in a.metrics if m.name == "baseline_throughput"]
