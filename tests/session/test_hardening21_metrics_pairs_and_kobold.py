"""Two readings under one unit, and KoboldCpp's speed line.

- "87-90 vs 115-134 tok/s": the first range shares the unit written once after the second; it
  was lost (only 124.5 was read), so the run had nothing to be compared with. "~350 vs ~180
  tok/s" and "1,350 vs 1,180 tok/s" lost their first reading the same way, and "87~90 tok/s" (a
  range with a tilde) was read as its upper end.
- KoboldCpp prints one line after each generation (LostRuins/koboldcpp gpttype_adapter.cpp,
  gpttype_generate; LostRuins/koboldcpp#972 posts the --debugmode form): "Process:0.28s
  (551.47T/s), Generate:2.48s (40.24T/s)". Nothing was read: "T/s" in capitals after the number.
"""

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer


def _readings(text, prose=True):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=prose))


def test_a_range_before_vs_shares_the_unit_after_the_second():
    assert _readings("EAGLE3 went from 87-90 vs 115-134 tok/s") == [("throughput", 88.5), ("throughput", 124.5)]
    assert _readings("Without speculation 87-90 vs 115-134 tok/s with EAGLE3") == \
        [("baseline_throughput", 88.5), ("throughput", 124.5)]
    assert _readings("baseline 87\u201390 to 115\u2013134 tok/s with EAGLE-3") == \
        [("baseline_throughput", 88.5), ("throughput", 124.5)]


def test_about_and_thousands_before_vs():
    assert _readings("EAGLE-3 ~350 vs ~180 tok/s") == [("throughput", 180.0), ("throughput", 350.0)]
    assert _readings("total throughput 1,350 vs 1,180 tok/s") == [("total_throughput", 1180.0), ("total_throughput", 1350.0)]


def test_a_tilde_between_two_numbers_is_a_range():
    assert _readings("87~90 vs 115~134 tok/s") == [("throughput", 88.5), ("throughput", 124.5)]
    assert _readings("decode at 87~90 tok/s") == [("throughput", 88.5)]


def test_dates_and_settings_before_a_pair_stay_no_readings():
    assert _readings("ran 2025-01-05 to 120 tok/s") == [("throughput", 120.0)]
    assert _readings("at bs=1-4 vs 890 tok/s") == [("throughput", 890.0)]


KOBOLD = """\
Processing Prompt [BLAS] (512 / 512 tokens)
Generating (100 / 100 tokens)
[17:23:56] CtxLimit:612/4096, Amt:100/100, Init:0.01s, Process:0.28s (551.47T/s), Generate:2.48s (40.24T/s), Total:2.76s
Output: Hello there
Processing Prompt (1 / 1 tokens)
Generating (1 / 242 tokens)
(EOS token triggered! ID:2)
CtxLimit: 3768/4096, Process:0.44s (442.0ms/T = 2.26T/s), Generate:0.00s (3.0ms/T = 333.33T/s), Total:0.45s (2.25T/s)
Generating (100 / 100 tokens)
[17:25:01] CtxLimit:880/4096, Amt:100/100, Init:0.01s, Process:0.05s (1.8ms/T = 560.00T/s), Generate:2.60s (26.0ms/T = 38.46T/s), Total:2.65s (37.74T/s)
"""


def test_koboldcpp_generate_is_decode_and_process_is_prefill():
    # the one-token generation (0.00s) timed nothing: no 333 tok/s reading; Total is no decode speed
    assert _readings(KOBOLD, prose=False) == [("prefill_throughput", 371.24), ("throughput", 39.35)]


def test_koboldcpp_line_in_a_session(tmp_path: Path):
    w = _Writer("7e1a0000-0000-4000-8000-0000000b0b21", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.bash("tail -n 20 kobold.log", KOBOLD)
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    metrics = [(m.name, m.value) for m in analyze_path(path).metrics]
    assert ("throughput", 39.35) in metrics and all(v != 333.33 for _, v in metrics)
