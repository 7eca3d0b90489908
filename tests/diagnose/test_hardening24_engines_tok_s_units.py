"""throughput vars written in the units benchmarks print (round 24).

vllm bench serve / sglang.bench_serving print "Mean TPOT (ms)" and "Mean ITL (ms)" next to
"Output token throughput (tok/s)": a TPOT pasted as `--var baseline_tok_s="11.2 ms/tok"` is a
time per output token (its inverse is one stream's tok/s), while a time per decode step covers
accept-length tokens with speculation and is no tok/s at all. Both were refused alike as 'not a
number'; 'tokens per second', 't/s' and 'tps' were refused too."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import throughput_step
from spec_debug.diagnose.steps.common import tok_s_var


@pytest.mark.parametrize("text,expected", [
    ("90 tokens per second", 90.0), ("90 t/s", 90.0), ("90 TPS", 90.0), ("1,234.5 tokens/sec", 1234.5),
    ("11.2 ms/tok", 1000 / 11.2), ("12ms/token", 1000 / 12), ("0.0125 s per token", 80.0),
    ("18.2 ms per output token", 1000 / 18.2),
])
def test_a_rate_or_a_time_per_token_is_read_as_tok_s(text, expected):
    value, problem = tok_s_var(text, "baseline_tok_s")
    assert problem is None and value == pytest.approx(expected)


@pytest.mark.parametrize("text", ["25 ms/step", "30 ms per iteration", "41 ms per decode step"])
def test_a_time_per_step_is_refused_saying_why(text):
    value, problem = tok_s_var(text, "measured_tok_s")
    assert value is None and "per decode step, not per token" in problem


def test_the_step_reads_a_tpot_baseline_and_compares_it():
    facts = throughput_step.parse({"args": {"baseline_tok_s": "11.1 ms/tok", "measured_tok_s": "54.8 tok/s"},
                                   "lines": []})
    assert facts["baseline_tok_s"] == pytest.approx(90.09, abs=0.01)
    assert facts["measured_tok_s"] == 54.8 and facts["throughput"]["var_problems"] == {}
