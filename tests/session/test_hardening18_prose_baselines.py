"""Baselines stated in prose are the run without speculation, with their batch size when the
sentence states one, and each reading is judged against its own row's. Numbers and sentences are
those of the thread named above each test."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.baselines import row_key
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def _readings(text: str) -> list[tuple[str, float, str | None]]:
    return [(m.name, m.value, row_key(m.context, m.value)) for m in extract_metrics(text)
            if m.name in ("throughput", "baseline_throughput")]


def _sd501(tmp_path: Path, *prompts: str) -> list[str]:
    w = _Writer("7e1a0000-0000-4000-8000-00000000bb19", None, START)
    for text in prompts:
        w.prompt(text)
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb19.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]


def test_baselines_stated_per_batch_size_in_prose_are_baselines_of_their_rows():
    # https://github.com/sgl-project/SpecForge/issues/339: the base model's bs=1 and bs=4 speeds
    text = "Baseline at bs=1: 222.47 tok/s; baseline at bs=4: 566.21 tok/s"
    # before: both read as ordinary throughputs (and so as slowdowns of nothing)
    assert _readings(text) == [("baseline_throughput", 222.47, "1"), ("baseline_throughput", 566.21, "4")]


def test_an_eagle3_run_is_judged_against_the_prose_baseline_of_its_batch_size(tmp_path):
    # https://github.com/sgl-project/SpecForge/issues/339: EAGLE3 at bs=4 gave 447.90 tok/s
    evidence = _sd501(tmp_path, "Baseline at bs=1: 222.47 tok/s; baseline at bs=4: 566.21 tok/s",
                      "EAGLE3 at bs=4: 447.90 tok/s")
    # before: no SD501 at all, the baselines were throughputs
    assert [line for line in evidence if "447.9 tok/s measured vs 566.21 tok/s baseline" in line]


def test_without_speculation_at_the_head_of_the_sentence_names_the_baseline():
    # https://github.com/sgl-project/SpecForge/issues/339, the base model's bs=1 row in words
    assert _readings("Without speculation, the output throughput is 222.47 tok/s at bs=1") == \
        [("baseline_throughput", 222.47, "1")]


def test_the_peak_without_a_draft_model_is_the_baseline_and_the_eagle_runs_are_not():
    # https://github.com/NickL77/BaldEagle/issues/15
    text = ("I noticed that on the first two difficulty levels of Math-500, the acclen was about 4 and the "
            "throughput reached 1300 tokens/s. However, as the difficulty increased, the length of acclen "
            "decreased and the throughput dropped severely to only 100 tokens/s. \n\nEmmm. \n"
            "I just noticed when post model without draft model the peak throughput reached 2700 tokens/s")
    assert sorted(_readings(text)) == [("baseline_throughput", 2700.0, None), ("throughput", 100.0, None),
                                       ("throughput", 1300.0, None)]


def test_a_bare_trailing_without_is_the_run_without_speculation():
    # https://github.com/sgl-project/sglang/pull/4716: EAGLE3 234.54 token/s, w/o spec 88.61 token/s
    assert sorted(_readings("On Llama-3.3-70B EAGLE3 gets 234.54 token/s with the draft and 88.61 token/s without.")) \
        == [("baseline_throughput", 88.61, None), ("throughput", 234.54, None)]
    assert sorted(_readings("With EAGLE3 it is 234.54 token/s; without, 88.61 token/s")) \
        == [("baseline_throughput", 88.61, None), ("throughput", 234.54, None)]


def test_a_reading_after_the_no_spec_one_or_a_comparison_stays_a_throughput():
    # https://github.com/sgl-project/sglang/issues/6949 ("with eagle: 30 tps / without eagle: 21 tps"), reordered
    assert sorted(_readings("Without eagle: 21 tps, with eagle: 30 tps")) == \
        [("baseline_throughput", 21.0, None), ("throughput", 30.0, None)]
    # https://github.com/sgl-project/sglang/pull/4716's EAGLE3 number, said against the run without
    assert _readings("Compared with running without speculation, EAGLE3 gets 234.54 token/s") == \
        [("throughput", 234.54, None)]
    assert _readings("I started the server without speculative decoding first. "
                     "Then EAGLE3 gave 234.54 token/s") == [("throughput", 234.54, None)]
