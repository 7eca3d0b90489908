"""analyze: "with the EAGLE-3 draft ... slower than without it (95 vs 140 tok/s)" is a baseline pair.

A user wrote "vLLM with the EAGLE-3 draft on gpu07 is slower than without it (95 vs 140
tok/s)": the sentence names the run with the drafter, then the run "without it", and the pair
follows in that order. Both were read as throughputs, so no SD501 and no baseline in the
postmortem. Where "it" is not a drafter ("EAGLE-3 with CUDA graphs is slower than without
it") both runs use EAGLE-3: no baseline, no SD501 (an ambiguous pair gives none).
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer


def _analysis(tmp_path, prompt: str):
    w = _Writer("59590000-0000-4000-8000-0000000000b1", None, datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt(prompt)
    w.bash("ssh ubuntu@gpu07 'ps aux | grep vllm | grep -v grep'",
           "ubuntu 4411 python -m vllm.entrypoints.openai.api_server --model /models/Llama-3.1-8B-Instruct")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_the_run_without_the_drafter_is_the_baseline(tmp_path):
    a = _analysis(tmp_path, "vLLM with the EAGLE-3 draft on gpu07 is slower than without it (95 vs 140 tok/s). "
                            "Please investigate.")
    assert sorted((m.name, m.value) for m in a.metrics if "throughput" in m.name) == [
        ("baseline_throughput", 140.0), ("throughput", 95.0)]
    assert [f.evidence for f in a.findings if f.code == "SD501"] == [["[msg 0] 95 tok/s measured vs 140 tok/s baseline"]]


def test_faster_than_without_it_keeps_the_order():
    found = extract_metrics("Serving with speculative decoding is faster than without it (188 vs 140 tok/s).")
    assert sorted((m.name, m.value) for m in found) == [("baseline_throughput", 140.0), ("throughput", 188.0)]


def test_without_something_else_is_no_baseline(tmp_path):
    a = _analysis(tmp_path, "EAGLE-3 with CUDA graphs is slower than without it (95 vs 140 tok/s).")
    assert [m.name for m in a.metrics if "throughput" in m.name] == ["throughput", "throughput"]
    assert not [f for f in a.findings if f.code == "SD501"]
