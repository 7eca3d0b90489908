"""Prose readings whose naming word stands where the analyzer did not look: the stage before the
number ("prefill 5000 tok/s"), one user's share before the number ("per user 30 tok/s"), and the
run without speculation stated by a verb ("When I disable speculative decoding, ..."). The
phrasings are the ones people write in sessions; the threads that show the same comparisons are
named above each test."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb31"


def _tputs(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text) if m.name.endswith("throughput")]


def _sd501(tmp_path: Path, *prompts: str) -> list[str]:
    w = _Writer(SESSION, None, START)
    for text in prompts:
        w.prompt(text)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]


# -- the stage named just before the number ---------------------------------------------------

def test_a_prefill_speed_named_before_its_number_is_no_decode_throughput():
    # the prompt's speed beside the decode speed, as llama.cpp prints them ("encoded ... speed:
    # 5.141 t/s" / "decoded ... speed: 4.701 t/s", https://github.com/ggml-org/llama.cpp/pull/18039)
    # before: two decode throughputs, 5000 and 30
    assert _tputs("prefill 5000 tok/s, decode 30 tok/s") == [("prefill_throughput", 5000.0), ("throughput", 30.0)]
    assert _tputs("prompt: 5000 tok/s, generation: 30 tok/s") == \
        [("prefill_throughput", 5000.0), ("throughput", 30.0)]
    assert _tputs("Prefill: 5000 tok/s; decode: 30 tok/s") == [("prefill_throughput", 5000.0), ("throughput", 30.0)]


def test_a_prompt_or_a_chunked_prefill_setting_in_passing_names_no_stage():
    assert _tputs("On this prompt 30 tok/s with EAGLE3.") == [("throughput", 30.0)]
    assert _tputs("EAGLE3 with chunked prefill 30 tok/s") == [("throughput", 30.0)]


# -- one user's share named before the number ---------------------------------------------------

def test_a_per_user_speed_named_before_its_number_is_one_users_share():
    # SGLang's bench table has a per_user_throughput column beside output_throughput (94.092 of
    # 376.367 at concurrency 4, https://github.com/sgl-project/sglang/pull/6606)
    # before: decode throughputs of 94.09
    assert _tputs("per user 94.09 tok/s") == [("per_user_throughput", 94.09)]
    assert _tputs("Per-user: 94.09 tok/s") == [("per_user_throughput", 94.09)]
    assert _tputs("each stream gets 94.09 tok/s") == [("per_user_throughput", 94.09)]
    # a user named otherwise is no per-user reading
    assert _tputs("the user gets 94.09 tok/s") == [("throughput", 94.09)]


def test_a_per_user_speed_before_its_number_is_not_compared_with_the_batchs_baseline(tmp_path):
    # before: SD501 "94.09 tok/s measured vs 300 tok/s baseline"
    assert _sd501(tmp_path, "Without speculation: 300 tok/s at concurrency 4.",
                  "With EAGLE3 at concurrency 4, per user 94.09 tok/s.") == []


# -- the run without speculation stated by a verb ----------------------------------------------

def test_turning_speculation_off_names_the_baseline_run():
    # the comparison of https://github.com/sgl-project/sglang/issues/6949 ("without eagle" vs
    # "with eagle"), said with a verb. before: plain throughputs of 140
    assert _tputs("When I disable speculative decoding, throughput is 140 tok/s") == [("baseline_throughput", 140.0)]
    assert _tputs("with spec decoding turned off we get 140 tok/s") == [("baseline_throughput", 140.0)]
    assert _tputs("disabling EAGLE gives 140 tok/s") == [("baseline_throughput", 140.0)]
    assert _tputs("I turned off speculative decoding and got 140 tok/s") == [("baseline_throughput", 140.0)]
    # the speculative reading after it stays the run's own
    assert _tputs("When I disable speculative decoding, throughput is 140 tok/s; with EAGLE3 it is 90 tok/s") == \
        [("baseline_throughput", 140.0), ("throughput", 90.0)]


def test_turning_off_a_part_of_the_speculative_run_is_no_baseline():
    # SGLang's speculative run turns features off (https://github.com/sgl-project/sglang/pull/3144)
    assert _tputs("Note that spec decoding disabled the radix cache, and we got 140 tok/s.") == [("throughput", 140.0)]
    assert _tputs("I disabled the draft model's CUDA graph, now 140 tok/s") == [("throughput", 140.0)]
    assert _tputs("After I disable spec decoding overlap we get 140 tok/s") == [("throughput", 140.0)]


def test_a_slowdown_against_a_run_with_speculation_turned_off_is_found(tmp_path):
    # before: no baseline, no SD501
    evidence = _sd501(tmp_path, "When I disable speculative decoding, throughput is 140 tok/s.",
                      "With EAGLE3 we get 90 tok/s.")
    assert any("90" in line and "140" in line for line in evidence), evidence
