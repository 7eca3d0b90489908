"""The throughput model on measurements it cannot explain.

A measured tok/s above accept length x baseline is impossible when verifying costs at least a
target step (Leviathan et al. Thm 3.8): the two numbers were taken under different conditions
(batch size, concurrency, a cached prompt). The model must not turn that into a negative
draft cost, and SD503 must fall back to the weight estimate.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.perf import check_payoff
from spec_debug.diagnose.throughput import build_model, implied_draft_cost_ratio


def test_measurement_faster_than_the_model_allows_gives_no_negative_cost():
    # AL 1.5 at 3 steps cannot reach 2x the baseline
    assert implied_draft_cost_ratio(200.0, 100.0, 1.5, 3) is None
    model = build_model(steps=3, draft_cost_ratio=0.05, observed_accept_length=1.5,
                        baseline_tok_s=100.0, measured_tok_s=200.0)
    assert model.implied_draft_cost_ratio is None
    assert model.round_overhead is None
    assert any("not comparable" in note for note in model.notes)
    assert model.measured_speedup == 2.0


def test_payoff_uses_the_weight_estimate_when_the_measurement_is_unexplainable():
    # a slow draft (c = 0.3 from the weights): 1 + 3 * 0.3 = 1.9 > best AL 1.5 -> SD503
    model = build_model(steps=3, draft_cost_ratio=0.3, observed_accept_length=1.5,
                        baseline_tok_s=100.0, measured_tok_s=200.0)
    findings = check_payoff(model, 1.5, 3)
    assert [f.code for f in findings] == ["SD503"]
    assert "estimated from the weights" in findings[0].evidence[0]
    assert findings[0].facts["draft_cost_ratio"] == 0.3


def test_a_plausible_measurement_still_yields_its_cost():
    c = implied_draft_cost_ratio(90.0, 100.0, 2.0, 3)
    assert c is not None and abs(c - (2.0 * 100 / 90 - 1) / 3) < 1e-9
