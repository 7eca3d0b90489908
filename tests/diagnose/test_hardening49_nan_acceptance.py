"""A NaN acceptance probability read as 0 in the throughput model (`max(0.0, nan)` is 0.0): the
chain cut there, an accept length of 1 was predicted and the draft was said not to pay off,
from numbers that were no numbers. 1.7 or -0.2 were likewise made 1 or 0 without a word.
The model now refuses them (InvalidProbability), and the throughput step says which rate is
not a probability instead of predicting from it."""

from __future__ import annotations

import math

import pytest

from spec_debug.diagnose.steps import throughput_step
from spec_debug.diagnose.throughput import (
    InvalidProbability, chain_accept_length, chain_accept_length_constant, eagle_tree_accept_length,
)
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE


@pytest.mark.parametrize("bad", [math.nan, math.inf, -0.2, 1.7, "0.8x"])
def test_the_model_refuses_what_is_no_probability(bad):
    with pytest.raises(InvalidProbability, match="not a probability"):
        chain_accept_length([0.8, bad, 0.6], steps=3)
    with pytest.raises(InvalidProbability):
        chain_accept_length_constant(bad, 3)
    with pytest.raises(InvalidProbability):
        eagle_tree_accept_length([[0.8, bad]], topk=2, num_steps=2, num_draft_tokens=4)


def test_rounding_past_one_is_still_a_probability():
    assert chain_accept_length([1.0 + 1e-12], steps=2) == pytest.approx(3.0)


def test_the_step_says_a_nan_rate_and_predicts_nothing_from_it():
    reference = {"steps": 3, "reference": "target_argmax", "target_conditional_acceptance": [0.8, math.nan, 0.6]}
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": {"engine": "sglang", "effective": {"num_steps": 3, "topk": 1,
                                                                                "num_draft_tokens": 4}},
                                   "eval": {"reference": reference}, **facts})
    findings = throughput_step.check(ctx)
    said = [f for f in findings if any("not all probabilities" in e for e in f.evidence)
            or "not all probabilities" in f.title]
    assert said, [(f.code, f.title, f.evidence) for f in findings]
    throughput = next(v for v in facts.values() if isinstance(v, dict) and "model" in v)
    assert throughput["predicted_accept_length_reference"] is None
