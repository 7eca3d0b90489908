"""Prose readings a careful engineer reads one way and the analyzer read another: speculation
that disabled a feature is no run without speculation, a list of baselines after one "without
speculation" is all baselines (each of its own batch size), and "AL" next to a whole number is an
accept length only in a text about drafting. Numbers and phrasing from the threads named above
each test."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.baselines import row_key
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb1a"


def _readings(text: str) -> list[tuple[str, float, str | None]]:
    return [(m.name, m.value, row_key(m.context, m.value)) for m in extract_metrics(text)
            if m.name in ("throughput", "baseline_throughput")]


def _sd501(tmp_path: Path, *prompts: str) -> list[str]:
    w = _Writer(SESSION, None, START)
    for text in prompts:
        w.prompt(text)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]


# -- speculation that disabled a feature ------------------------------------------------------

def test_speculation_that_disabled_the_radix_cache_is_still_the_speculative_run():
    # SGLang turns the radix cache off for speculative decoding ("EAGLE does not support radix
    # caching at the moment", https://github.com/sgl-project/sglang/pull/3144;
    # https://github.com/sgl-project/sglang/issues/32459): the 140 tok/s is EAGLE's own.
    # before: baseline_throughput 140
    assert _readings("Note that spec decoding disabled the radix cache, and we got 140 tok/s.") == \
        [("throughput", 140.0, None)]
    assert _readings("Speculative decoding disabled prefix caching hits, throughput 140 tok/s") == \
        [("throughput", 140.0, None)]
    # the state itself still names the run without speculation
    assert _readings("With spec decoding disabled, we got 90 tok/s.") == [("baseline_throughput", 90.0, None)]


def test_specforge_offline_is_no_spec_off():
    # SpecForge's offline hidden-state preparation (sgl-project/SpecForge scripts/prepare_hidden_states.py),
    # named as this project's reference notes name it; before: "spec ... off" read a baseline
    assert _readings("**SpecForge offline** (`scripts/prepare_hidden_states.py`): 1450 tok/s") == \
        [("throughput", 1450.0, None)]


def test_no_false_slowdown_against_a_speculative_run_misread_as_the_baseline(tmp_path):
    evidence = _sd501(tmp_path, "Baseline without speculation: 100 tok/s.",
                      "Note that spec decoding disabled the radix cache, and we got 140 tok/s.",
                      "EAGLE3 with --enable-radix-cache again: 130 tok/s")
    # before: "130 tok/s measured vs 140 tok/s baseline"
    assert evidence == []


# -- a list of baselines after one "without speculation" ---------------------------------------

def test_each_reading_of_a_list_after_without_speculation_is_a_baseline_of_its_row():
    # https://github.com/sgl-project/SpecForge/issues/339: the base model's speeds by batch size
    # before: only the first a baseline, 566.21 and 733.61 plain throughputs (of bs=1 for "and")
    assert _readings("Without speculation: 222.47 tok/s at bs=1, 566.21 tok/s at bs=4, 733.61 tok/s at bs=8.") == \
        [("baseline_throughput", 222.47, "1"), ("baseline_throughput", 566.21, "4"),
         ("baseline_throughput", 733.61, "8")]
    assert _readings("Without speculative decoding we see 222.47 tok/s at bs=1 and 566.21 tok/s at bs=4.") == \
        [("baseline_throughput", 222.47, "1"), ("baseline_throughput", 566.21, "4")]
    assert _readings("Without speculation: bs=1: 222.47 tok/s, bs=4: 566.21 tok/s") == \
        [("baseline_throughput", 222.47, "1"), ("baseline_throughput", 566.21, "4")]


def test_a_list_that_turns_to_the_speculative_run_stops_being_baselines():
    assert _readings("Without speculation: 222.47 tok/s at bs=1, with EAGLE3 159.78 tok/s at bs=1") == \
        [("baseline_throughput", 222.47, "1"), ("throughput", 159.78, "1")]
    assert _readings("Without speculation we get 222.47 tok/s at bs=1, but 447.9 tok/s at bs=4 with the draft") == \
        [("baseline_throughput", 222.47, "1"), ("throughput", 447.9, "4")]


def test_a_reading_whose_row_follows_its_unit_is_of_that_row():
    # https://github.com/sgl-project/SpecForge/issues/339's EAGLE3 rows in one sentence
    # before: both of bs=1 (the last row word before the number)
    text = "With EAGLE3 we see 159.78 tok/s at bs=1 and 447.9 tok/s at bs=4."
    assert [row_key(text, v) for v in (159.78, 447.9)] == ["1", "4"]


def test_the_eagle3_run_at_bs4_is_judged_against_the_listed_bs4_baseline(tmp_path):
    # https://github.com/sgl-project/SpecForge/issues/339: EAGLE3 at bs=4 gave 447.90 tok/s
    evidence = _sd501(tmp_path, "Without speculation: 222.47 tok/s at bs=1, 566.21 tok/s at bs=4.",
                      "EAGLE3 at bs=4: 447.90 tok/s")
    # before: no SD501 (bs=4's baseline was read as a throughput)
    assert [line for line in evidence if "447.9 tok/s measured vs 566.21 tok/s baseline" in line]


# -- "AL" -------------------------------------------------------------------------------------

def test_al_next_to_a_whole_number_outside_speculation_is_no_accept_length():
    # before: accept_length 15 and 13
    assert [m for m in extract_metrics("We have 15 AL students in the lab") if m.name == "accept_length"] == []
    # Business Central's AL language (StefanMaron/BusinessCentral.LinterCop#605: "AL version 13")
    assert [m for m in extract_metrics("Enable LC0043 on AL 13") if m.name == "accept_length"] == []


def test_al_in_a_text_about_drafting_is_still_the_accept_length():
    # https://github.com/vllm-project/vllm/issues/16035 ("Using 3 draft token SGL gets 2.4 AL"),
    # and a whole number in the same thread's words
    assert [m.value for m in extract_metrics("Using 3 draft token SGL gets 2 AL") if m.name == "accept_length"] == [2.0]
    # https://github.com/vllm-project/vllm/pull/26191: decimals need no context
    assert [m.value for m in extract_metrics("Previous AL=3.53") if m.name == "accept_length"] == [3.53]


# -- readings stated before their baselines ----------------------------------------------------

# https://github.com/sgl-project/sglang/issues/6949 (Ximingwang-09, 2025-06-07), as posted
SGLANG_6949 = "tp = 1\nwith eagle: 30 tps\nwithout eagle: 21 tps\ntp = 4\nwith eagle: 59 tps\nwithout eagle: 61 tps"


def test_each_with_eagle_reading_is_judged_against_the_without_eagle_line_after_it(tmp_path):
    evidence = _sd501(tmp_path, SGLANG_6949)
    # before: no SD501 at all (the 59 was compared with tp=1's 21, the 61 read after it)
    assert len(evidence) == 1 and "59 tok/s measured vs 61 tok/s baseline" in evidence[0]


def test_a_table_of_baseline_rows_above_their_runs_keeps_its_pairing(tmp_path):
    # baselines stated first: each run is compared with the baseline above it
    evidence = _sd501(tmp_path, "Without speculation: 222.47 tok/s on Qwen3-30B-A3B.\nEAGLE3: 159.78 tok/s on Qwen3-30B-A3B.\n"
                      "Without speculation: 133 tok/s on Llama-3.1-8B.\nEAGLE3: 220.21 tok/s on Llama-3.1-8B.")
    assert len(evidence) == 1 and "159.78 tok/s measured vs 222.47 tok/s baseline" in evidence[0]


# -- accept length spellings -------------------------------------------------------------------

def test_an_accepted_token_length_is_the_accept_length():
    # https://github.com/sgl-project/SpecForge/issues/128 (Qwen2.5-7B, 50K ShareGPT samples), as posted;
    # before: no accept length (the 0.83 is GSM8K's answer accuracy, no reading of the draft's)
    text = ("I used Qwen2.5-7B as the target model and the default LlamaForCausalLMEagle3 as the draft model. "
            "After training on 50K samples from ShareGPT for 5 epochs, I ran run_gsm8k.py, achieving an accuracy "
            "of 0.83 and an average accepted token length of 1.94.")
    assert [(m.name, m.value) for m in extract_metrics(text)] == [("accept_length", 1.94)]
    # the EAGLE-3 paper's symbol after the words
    assert [m.value for m in extract_metrics("an acceptance length (τ) of 3.5") if m.name == "accept_length"] == [3.5]
