"""Speedups and baselines said relative to another run, as people write them.

- "2.3x faster than fork's MTP": a drafter against another drafter (someone's MTP), no speedup
  over the run without speculation, as "faster than MTP" already was none.
- "TPOT is 13.6x lower with MTP on": a decode latency's factor with the drafter on is a speedup
  of 13.6 (a token's time is the inverse of the decode speed); the first token's time is none.
- "| Model | AR | MTP |" over "45.2 tok/s | 98.1 tok/s" cells: "AR" (autoregressive) is the run
  without a drafter; the table is read, AR's cells as the baseline, and a row its label names
  another quantity of ("TTFT (ms)") is no throughput.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text", [
    "With EAGLE-3 we are 2.3x faster than fork's MTP.",
    "EAGLE3 is 2.3x faster than the upstream MTP on this box",
    "our run is 17% faster than SGLang's EAGLE-2",
    "a 1.4x speedup over vLLM's ngram",
])
def test_against_someone_elses_drafter_is_no_speedup(text):
    assert [r for r in _readings(text) if r[0] == "speedup"] == []


def test_against_the_baseline_stays_a_speedup():
    assert _readings("EAGLE3 is 1.5x faster than SGLang's EAGLE-2 and 2x faster than no-spec") == \
        [("speedup", 2.0, "x")]
    assert _readings("2x faster than vanilla") == [("speedup", 2.0, "x")]


@pytest.mark.parametrize("text,factor", [
    ("TPOT is 13.6x lower with MTP on", 13.6),
    ("2x lower ITL with EAGLE-3 enabled", 2.0),
    ("mean TPOT was 1.8x lower with speculative decoding", 1.8),
    ("decode latency 2x higher without EAGLE-3", 2.0),
    ("per-token latency 1.25x higher with the draft model", 0.8),
    ("ITL is 2x lower with MTP off", 0.5),
])
def test_a_latency_factor_with_the_drafter_is_a_speedup(text, factor):
    assert _readings(text) == [("speedup", factor, "x")]


@pytest.mark.parametrize("text", [
    "TTFT is 13.6x lower with MTP on",
    "latency is 2x lower than yesterday",
    "TPOT is 2x lower after the driver upgrade",
])
def test_no_drafter_or_the_prefill_is_no_speedup(text):
    assert [r for r in _readings(text) if r[0] == "speedup"] == []


AR_TABLE = """Results on one H100:

| Model | AR | MTP |
|---|---|---|
| Qwen3-8B | 45.2 tok/s | 98.1 tok/s |
| Llama-3.1-8B | 50 tok/s | 110 tok/s |
"""


def test_an_ar_column_is_the_baseline():
    assert _readings(AR_TABLE) == [
        ("baseline_throughput", 45.2, "tok/s"), ("baseline_throughput", 50.0, "tok/s"),
        ("throughput", 98.1, "tok/s"), ("throughput", 110.0, "tok/s")]


def test_an_ar_column_with_its_unit_in_the_header():
    text = "| Model | AR (tok/s) | MTP (tok/s) | Speedup |\n|---|---|---|---|\n| Qwen3-8B | 45.2 | 98.1 | 2.17x |\n"
    assert _readings(text) == [("baseline_throughput", 45.2, "tok/s"), ("speedup", 2.17, "x"),
                               ("throughput", 98.1, "tok/s")]


def test_rows_of_other_quantities_under_run_columns():
    text = ("| Metric | AR | MTP |\n|---|---|---|\n| Output throughput | 45.2 tok/s | 98.1 tok/s |\n"
            "| TTFT (ms) | 120 | 300 |\n| Accept length | 1.0 | 2.4 |\n")
    assert _readings(text) == [("accept_length", 2.4, "tokens"), ("baseline_throughput", 45.2, "tok/s"),
                               ("throughput", 98.1, "tok/s")]


def test_ar_in_lower_case_or_a_name_is_no_baseline():
    text = "| Model | AR-Net | EAGLE3 |\n|---|---|---|\n| Qwen3-8B | 45.2 tok/s | 98.1 tok/s |\n"
    assert ("baseline_throughput", 45.2, "tok/s") not in _readings(text)


@pytest.mark.parametrize("text", [
    "The drafter is 3x slower than expected",
    "EAGLE3 is 2x faster than before the fix",
    "SGLang with EAGLE3 is 1.6x faster than vLLM",
])
def test_a_factor_against_an_expectation_or_another_run_is_no_speedup(text):
    assert [r for r in _readings(text) if r[0] == "speedup"] == []


@pytest.mark.parametrize("text,factor", [
    ("EAGLE3 is 2x faster than regular decoding", 2.0),
    ("EAGLE3 is 1.8x faster than running the target model alone", 1.8),
    ("1.3x slower than AR", 0.769),
    ("With EAGLE3, it's 1.5x faster than without EAGLE3", 1.5),
    ("EAGLE3 is 2x faster", 2.0),
])
def test_a_factor_against_the_run_without_speculation_stays(text, factor):
    assert _readings(text) == [("speedup", factor, "x")]


@pytest.mark.parametrize("text", [
    "Results: AR 95.3 tok/s, MTP 180.2 tok/s.",
    "AR: 95.3 tok/s; EAGLE3: 180.2 tok/s",
    "95.3 tok/s (AR) vs 180.2 tok/s (MTP)",
])
def test_ar_in_prose_is_the_baseline(text):
    assert _readings(text) == [("baseline_throughput", 95.3, "tok/s"), ("throughput", 180.2, "tok/s")]


@pytest.mark.parametrize("text", ["AR-LLM runs at 95.3 tok/s", "The CAR model hits 95.3 tok/s", "ar 95.3 tok/s"])
def test_ar_inside_a_name_or_in_lower_case_is_no_baseline(text):
    assert _readings(text) == [("throughput", 95.3, "tok/s")]
