"""Eval steps deeper than every sample hold 0.0 meaning "not scored" (unscored_steps): the
throughput model read them as acceptance rates of 0 and predicted a chain cut at that depth, an
accept length far below what the server can reach (a false SD502)."""

from __future__ import annotations

from spec_debug.diagnose.steps import eval_step
from spec_debug.diagnose.steps.throughput_step import acceptance_rates
from spec_debug.diagnose.throughput import chain_accept_length


def test_unscored_steps_are_not_rates():
    metrics = {"reference": "target_argmax", "target_conditional_acceptance": [0.8, 0.7, 0.0, 0.0],
               "conditional_accuracy": [0.75, 0.65, 0.0, 0.0], "unscored_steps": [2, 3]}
    assert acceptance_rates(metrics) == [0.8, 0.7]
    assert chain_accept_length(acceptance_rates(metrics), steps=4) > chain_accept_length([0.8, 0.7, 0.0, 0.0], steps=4) + 0.5
    assert acceptance_rates({**metrics, "reference": "data_tokens"}) == [0.75, 0.65]
    assert acceptance_rates({**metrics, "unscored_steps": []}) == [0.8, 0.7, 0.0, 0.0]


def test_the_eval_step_keeps_the_unscored_steps():
    assert "unscored_steps" in eval_step.KEEP
