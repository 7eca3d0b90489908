"""throughput vars: a time per decode step written with its unit against the number (review of
round 24).

Round 24 refused "25 ms/step" saying a step covers accept-length tokens, but its pattern wanted
a word boundary before the unit, which "25ms/step" (the unit written against the number, as
often as not) has not: it fell through to the generic "not a number of tokens per
second", without the why. Rates and times per token keep their reading."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps.common import tok_s_var


@pytest.mark.parametrize("text", ["25ms/step", "30.5ms per iteration", "41ms/decode step", "0.03s/step"])
def test_a_step_time_touching_its_number_is_refused_saying_why(text):
    value, problem = tok_s_var(text, "measured_tok_s")
    assert value is None and "is a time per decode step, not per token" in problem


@pytest.mark.parametrize("text,expected", [("3.2 tokens/step", None), ("90 tokens/s", 90.0),
                                           ("11.2ms/tok", 1000 / 11.2)])
def test_other_units_keep_their_reading(text, expected):
    value, problem = tok_s_var(text, "measured_tok_s")
    assert value == (pytest.approx(expected) if expected else None)
    assert problem is None or "per decode step" not in problem
