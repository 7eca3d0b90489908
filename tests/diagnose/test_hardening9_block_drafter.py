"""SGLang's block drafters (DFLASH, DSPARK) draft the whole verify block in one draft forward
pass (sgl-project/sglang python/sglang/srt/speculative/dflash_worker_v2.py: one
`draft_model_runner.forward` per round; dspark_components/dspark_draft.py likewise), so a round
costs 1 + c target steps, not 1 + K*c: the throughput model must not charge them per token."""

from __future__ import annotations

from spec_debug.diagnose.checks.perf import check_payoff
from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.diagnose.throughput import ThroughputModel, build_model
from spec_debug.probes.registry import ProbeContext

# The DFLASH command of tests/diagnose/test_hardening8_launch.py (z-lab's b16 drafter for Qwen3-8B).
DFLASH = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm DFLASH "
          "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 --speculative-num-steps 1 "
          "--speculative-num-draft-tokens 16 --tp-size 1")
# A DFLASH server logs accept len 4.50 (modal-labs/modal-examples PR #1586); the line's format
# is SGLang's decode log line (sgl-project/sglang#11948).
DECODE = ("[2026-10-30 12:01:0{i} TP0] Decode batch. #running-req: 1, #token: 400, token usage: 0.00, "
          "accept len: 4.50, accept rate: 0.28, cuda graph: True, gen throughput (token/s): 170.0, #queue-req: 0, ")


def test_a_block_drafter_pays_one_draft_pass_per_round():
    model = build_model(steps=15, draft_cost_ratio=0.14, observed_accept_length=4.5, block_drafter=True)
    assert model.draft_passes == 1
    assert round(model.break_even_accept_length, 4) == 1.14
    assert round(model.speedup_at_observed, 3) == round(4.5 / 1.14, 3)
    # an EAGLE chain of 15 steps runs 15 passes
    chain = build_model(steps=15, draft_cost_ratio=0.14, observed_accept_length=4.5)
    assert chain.draft_passes == 15 and round(chain.break_even_accept_length, 4) == 3.1


def test_a_block_drafter_is_not_called_unable_to_pay_off_for_its_block_size():
    model = ThroughputModel(steps=15, draft_cost_ratio=0.14, block_drafter=True)
    # 2.0 accepted per round beats 1 + 0.14 (one pass); 15 passes would need 3.1
    assert check_payoff(model, 2.0) == []
    model = ThroughputModel(steps=15, draft_cost_ratio=0.14)
    assert [f.code for f in check_payoff(model, 2.0)] == ["SD503"]


def test_the_throughput_step_models_a_dflash_server_as_one_pass_of_a_15_token_block(monkeypatch):
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.14)
    launch = launch_step.parse({"source": "var", "cmdline": DFLASH, "models": {}})
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "100"}})
    host = {**launch, **facts, "eval": {"reference": {"steps": 7, "reference": "target_argmax",
                                                      "target_conditional_acceptance": [0.8] * 7}}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=host)
    found = throughput_step.check(ctx)
    tp = facts["throughput"]
    assert tp["served_steps"] == 15  # the block after its anchor token, not num_steps 1
    assert tp["model"]["draft_passes"] == 1
    # 4.5 tokens per round at 170 vs 100 tok/s: a round takes 2.65 target steps, 1 + 0.14 of
    # them the target and the one draft pass, the rest overhead (15 passes would leave none)
    assert tp["model"]["round_overhead"] == round(4.5 * 100 / 170 - 1.14, 4)
    assert "SD503" not in [f.code for f in found]
    assert any("one draft pass" in note for note in tp["model"]["notes"])


def test_the_block_drafter_is_known_from_the_startup_line_without_a_command(monkeypatch):
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.14)
    startup = ("[2026-10-30 12:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', "
               "speculative_algorithm='DFLASH', speculative_draft_model_path='z-lab/Qwen3-8B-DFlash-b16', "
               "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=16, tp_size=1)")
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [startup] + [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "100"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**facts})
    throughput_step.check(ctx)
    assert facts["throughput"]["model"]["draft_passes"] == 1
    assert facts["throughput"]["served_steps"] == 15
