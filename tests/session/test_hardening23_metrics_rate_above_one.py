"""An acceptance "rate" above 1 said without a percent sign is no ratio.

Accepted over drafted tokens is at most 1; "acceptance rate 1.8" was read as a ratio of 1.8.
TensorRT-LLM calls the tokens each decoding step accepts its "acceptance rate"
("avg_acceptance_rate(tokens/decoding steps)", benchmarks/cpp/gptManagerBenchmark.cpp) and so does
NVIDIA's specdec_bench ("the number of tokens generated on every iteration ... just 1" without a
draft, NVIDIA/Model-Optimizer examples/specdec_bench/README.md): with decimals under 10 it is the
accept length. A whole number or one from 10 up is a percentage whose sign was dropped; over 100
it is nothing.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=True))


@pytest.mark.parametrize("text, value", [
    ("acceptance rate 1.8", 1.8),
    ("With EAGLE3 on TRT-LLM the acceptance rate is only 1.12, so the draft is useless.", 1.12),
    ("avg acceptance rate: 2.71 tokens/step", 2.71),
])
def test_a_rate_above_one_with_decimals_is_an_accept_length(text, value):
    assert _readings(text) == [("accept_length", value, "tokens")]


def test_a_change_of_such_rates_is_two_accept_lengths():
    assert _readings("acceptance rate went from 1.2 to 2.8 after the fix") == \
        [("accept_length", 1.2, "tokens"), ("accept_length", 2.8, "tokens")]


@pytest.mark.parametrize("text, value", [
    ("accept rate: 65", 65.0),
    ("acceptance rate 12.5 on MT-Bench", 12.5),
])
def test_a_large_bare_rate_is_a_percentage(text, value):
    assert _readings(text) == [("accept_rate", value, "%")]


def test_ratios_and_percentages_are_unchanged():
    assert _readings("accept rate: 0.55") == [("accept_rate", 0.55, "ratio")]
    assert _readings("acceptance rate: 1.0") == [("accept_rate", 1.0, "ratio")]
    assert _readings("acceptance rate of ~62%") == [("accept_rate", 62.0, "%")]


def test_a_rate_over_a_hundred_is_no_reading():
    assert _readings("acceptance rate: 250") == []


@pytest.mark.parametrize("text, value", [
    ("avg acceptance rate: 2.71 tokens/step", 2.71),
    ("the acceptance rate is around 2.5 tokens per step", 2.5),
])
def test_a_rate_in_tokens_per_step_is_an_accept_length(text, value):
    assert _readings(text) == [("accept_length", value, "tokens")]


def test_a_table_column_of_rates_follows_the_same_rule():
    table = ("| run | acceptance rate | tok/s |\n|---|---|---|\n| trtllm eagle3 | 2.71 | 120.5 |\n"
             "| sglang eagle3 | 0.74 | 130.2 |\n| vllm eagle3 | 65.2 | 128.0 |\n")
    got = [r for r in _readings(table) if r[0] != "throughput"]
    assert got == [("accept_length", 2.71, "tokens"), ("accept_rate", 0.74, "ratio"), ("accept_rate", 65.2, "%")]
