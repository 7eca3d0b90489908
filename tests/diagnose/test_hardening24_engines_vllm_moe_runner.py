"""vLLM 0.25-0.28 serve MoE targets with the V1 model runner, which reads the SpecForge nested
ids (round 24).

engines.py's own 0.25.0 row says so ("model runner V2 is the default for non-MoE targets ...
MoE targets outside the MRv2 default list still run V1 (top level + nested) until 0.29";
vllm config/vllm.py `_is_default_v2_model_runner_model` requires `not model_config.is_moe`),
but only the DeepSeek-V3 family was listed as such a target: a Qwen3-30B-A3B or gpt-oss target
was planned as MRv2 (top-level key only), so a SpecForge draft's eagle_config ids were taken as
unread and the default layers as served. A draft trained on output-of [1, 23, 44] (input-to
[2, 24, 45]) is served [1, 23, 44] raw by V1: a real mismatch that went unreported."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

SPECFORGE_DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 2048,
                   "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 23, 44]}}


@pytest.mark.parametrize("arch", ["Qwen3MoeForCausalLM", "GptOssForCausalLM", "Llama4ForConditionalGeneration",
                                  "Qwen3NextForCausalLM", "MiniMaxM2ForCausalLM"])
def test_a_moe_target_on_vllm_025_is_served_the_nested_ids(arch):
    plan = engines.serve_plan("vllm", "0.26.0", SPECFORGE_DRAFT, 48, arch)
    assert plan.config_key == engines.NESTED_KEY and plan.layer_ids == [1, 23, 44]
    assert engines.trained_layer_ids(SPECFORGE_DRAFT, 48) == [2, 24, 45]


def test_dense_and_listed_moe_targets_keep_model_runner_v2():
    for arch in ("Qwen3ForCausalLM", "LlamaForCausalLM", "DeepseekV2ForCausalLM"):
        plan = engines.serve_plan("vllm", "0.26.0", SPECFORGE_DRAFT, 48, arch)
        assert plan.used_default and plan.layer_ids == [2, 24, 45]


def test_from_029_every_target_runs_model_runner_v2():
    plan = engines.serve_plan("vllm", "0.29.0", SPECFORGE_DRAFT, 48, "Qwen3MoeForCausalLM")
    assert plan.used_default and plan.layer_ids == [2, 24, 45]
