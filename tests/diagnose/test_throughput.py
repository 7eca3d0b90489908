"""The throughput model against the worked numbers in public issues and papers (EAGLE3.md s.7)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.throughput import (
    TreeNode,
    break_even_accept_length,
    build_model,
    chain_accept_length,
    chain_accept_length_constant,
    conditional_from_joint,
    draft_params_from_config,
    eagle_tree_accept_length,
    estimate_draft_cost_ratio,
    implied_draft_cost_ratio,
    joint_from_conditional,
    predicted_tok_s,
    speedup,
    tree_accept_length,
)


def test_vllm_logged_per_position_rates_give_the_logged_accept_length():
    # https://github.com/vllm-project/vllm/pull/42764: per-position (joint) rates and AL 2.359
    joint = [0.622, 0.356, 0.203, 0.119, 0.060]
    cond = conditional_from_joint(joint)
    assert joint_from_conditional(cond) == pytest.approx(joint)
    assert chain_accept_length(cond) == pytest.approx(2.36, abs=1e-3)


def test_constant_rate_closed_form_matches_the_sum():
    for alpha in (0.0, 0.3, 0.8, 1.0):
        for k in (1, 3, 7):
            assert chain_accept_length_constant(alpha, k) == pytest.approx(chain_accept_length([alpha] * k))


def test_one_step_caps_accept_length_at_two():
    # the incident: a draft with 0.75 / 0.7 / 0.65 conditional acceptance served with 1 step
    cond = [0.75, 0.70, 0.65]
    assert chain_accept_length(cond, steps=1) == pytest.approx(1.75)
    assert chain_accept_length(cond, steps=3) == pytest.approx(1 + 0.75 + 0.525 + 0.34125)
    assert chain_accept_length(cond, steps=5) > chain_accept_length(cond, steps=3)  # flat tail


def test_tree_expectation_counts_every_path():
    # root candidates a (0.6) and b (0.3); a has children (0.5, 0.2)
    roots = [TreeNode(0.6, [TreeNode(0.5), TreeNode(0.2)]), TreeNode(0.3)]
    assert tree_accept_length(roots) == pytest.approx(1 + 0.6 + 0.3 + 0.6 * 0.5 + 0.6 * 0.2)


def test_eagle_tree_reduces_to_chain_for_topk_one_and_gains_with_siblings():
    ranks = [[0.6, 0.2], [0.5, 0.2], [0.4, 0.2]]
    chain = chain_accept_length([0.6, 0.5, 0.4])
    assert eagle_tree_accept_length(ranks, topk=1, num_steps=3, num_draft_tokens=4) == pytest.approx(chain)
    tree = eagle_tree_accept_length(ranks, topk=2, num_steps=3, num_draft_tokens=8)
    # depth 0: 0.6, 0.2; depth 1: 0.3, 0.12 (from 0.6), 0.1, 0.04 (from 0.2); the best two
    # (0.3, 0.12) expand to 0.12, 0.06, 0.048, 0.024. The 7 best: 0.6 .3 .2 .12 .12 .1 .06
    assert tree == pytest.approx(1 + 0.6 + 0.3 + 0.2 + 0.12 + 0.12 + 0.1 + 0.06)
    assert tree > chain


def test_leviathan_speedup_and_break_even():
    alpha, k, c = 0.8, 5, 0.05
    expected = (1 - alpha ** (k + 1)) / ((1 - alpha) * (k * c + 1))
    assert speedup(chain_accept_length_constant(alpha, k), k, c) == pytest.approx(expected)
    assert break_even_accept_length(3, 0.2) == pytest.approx(1.6)
    assert speedup(break_even_accept_length(3, 0.2), 3, 0.2) == pytest.approx(1.0)
    assert predicted_tok_s(90.0, 1.6, 3, 0.2) == pytest.approx(90.0)


def test_moe_target_case_implies_an_expensive_draft():
    # https://github.com/sgl-project/SpecForge/issues/339: Qwen3-30B-A3B, AL 1.86 at (3,1,4),
    # 159.8 tok/s with EAGLE-3 vs 222.5 baseline (bs=1)
    c = implied_draft_cost_ratio(159.8, 222.5, 1.86, 3)
    assert c == pytest.approx((1.86 * 222.5 / 159.8 - 1) / 3)
    assert predicted_tok_s(222.5, 1.86, 3, c) == pytest.approx(159.8)
    assert break_even_accept_length(3, c) > 1.86  # cannot pay off at this acceptance


def test_draft_parameter_count_matches_the_real_tensor_shapes():
    # EAGLE3.md s.3, H=7168, 3 aux layers: fc [7168,21504], q [7168,14336], k/v [1024,14336],
    # o [7168,7168], lm_head [32000,7168]; intermediate 18432 (gate/up/down)
    cfg = dict(hidden_size=7168, intermediate_size=18432, num_attention_heads=56,
               num_key_value_heads=8, head_dim=128, num_hidden_layers=1, draft_vocab_size=32000)
    expected = (7168 * 21504 + 7168 * 14336 + 2 * 1024 * 14336 + 7168 * 7168
                + 3 * 7168 * 18432 + 32000 * 7168)
    assert draft_params_from_config(cfg) == expected
    target = dict(hidden_size=7168, intermediate_size=18432, num_attention_heads=56,
                  num_key_value_heads=8, head_dim=128, num_hidden_layers=61, vocab_size=129280)
    c = estimate_draft_cost_ratio(draft_config=cfg, target_config=target)
    assert 0.01 < c < 0.05
    assert estimate_draft_cost_ratio(draft_params=1, target_params=None) is None


def test_build_model_reports_every_number():
    # the incident: 1 step, 54.8 tok/s vs 90 baseline at an observed accept length of 1.3
    m = build_model(steps=1, draft_cost_ratio=0.2, predicted_accept_length=1.75,
                    observed_accept_length=1.3, baseline_tok_s=90.0, measured_tok_s=54.8,
                    best_accept_length=2.6, best_steps=3)
    f = m.to_facts()
    per_round = 1.3 * 90 / 54.8  # target steps one round really costs
    assert f["round_overhead"] == pytest.approx(per_round - 1.2, abs=1e-4)
    assert f["break_even_accept_length"] == pytest.approx(per_round, abs=1e-4)
    assert f["predicted_tok_s_at_observed"] == pytest.approx(54.8, abs=1e-3)  # the model explains it
    assert f["predicted_tok_s"] == pytest.approx(90 * 1.75 / per_round, abs=1e-3)
    assert f["predicted_tok_s_best"] == pytest.approx(90 * 2.6 / (1 + 3 * 0.2 + per_round - 1.2), abs=1e-3)
    assert f["measured_speedup"] == pytest.approx(54.8 / 90, abs=1e-4)
    no_measure = build_model(steps=3, draft_cost_ratio=0.2, predicted_accept_length=2.6)
    assert no_measure.break_even_accept_length == pytest.approx(1.6) and no_measure.round_overhead is None
    assert build_model(steps=3, draft_cost_ratio=None).notes
