"""metrics: "The speedup is 1.51x (61.0 vs 40.3 tok/s)": the factor says which side is the baseline.

A speedup is the run's throughput over the baseline's: of the pair after it, the side the factor
divides is the baseline. Both were read as throughputs, so a prompt "EAGLE-3 only gets 0.68x
(40.3 vs 59 tok/s)" gave no SD501 and the postmortem's throughput "went from" one run to the
other. A pair the factor does not fit, and a slowdown's factor ("1.5x slower"), name none.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text, ours, base", [
    ("The speedup is 1.51x (61.0 vs 40.3 tok/s).", 61.0, 40.3),
    ("EAGLE-3 only gets 0.68x (40.3 vs 59 tok/s).", 40.3, 59.0),
])
def test_the_factor_names_the_baseline(text, ours, base):
    found = [(m.name, m.value) for m in extract_metrics(text) if "throughput" in m.name]
    assert sorted(found) == [("baseline_throughput", base), ("throughput", ours)]


@pytest.mark.parametrize("text", ["The speedup is 1.51x (61.0 vs 52 tok/s).", "EAGLE-3 is 1.5x slower (40 vs 60 tok/s)."])
def test_no_baseline_where_the_factor_does_not_say(text):
    assert [m.name for m in extract_metrics(text) if "throughput" in m.name] == ["throughput", "throughput"]


def test_a_reported_slowdown_is_sd501(tmp_path):
    w = _Writer("59590000-0000-4000-8000-0000000000f8", None, datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 only gets 0.68x (40.3 vs 59 tok/s). Why?")
    w.bash("ssh gpu01 'nvidia-smi --query-gpu=name --format=csv'", "name\nNVIDIA H100 80GB HBM3")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [f.evidence for f in a.findings if f.code == "SD501"] == [["[msg 0] 40.3 tok/s measured vs 59 tok/s baseline"]]
