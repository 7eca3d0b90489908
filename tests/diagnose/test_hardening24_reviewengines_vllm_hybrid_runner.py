"""vLLM 0.25-0.28 serve a hybrid (linear-attention) target with the V1 runner too, dense or
MoE (review of round 24).

Round 24 listed the MoE targets outside the MRv2 default list as V1-served (they read the
SpecForge nested eagle_config ids). config/vllm.py `_is_default_v2_model_runner_model` also
returns False for `model_config.is_hybrid` unless the architecture is listed, a check
vllm-project/vllm#48290 says still applies after #44443 made dense targets MRv2: a dense
Qwen3.5 target (Qwen3_5ForConditionalGeneration, Gated DeltaNet layers) runs V1 there, yet was
planned as MRv2 (top-level key only), so a SpecForge draft's nested ids were taken as unread."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

SPECFORGE_DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 4096,
                   "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 31, 60]}}


@pytest.mark.parametrize("arch", ["Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"])
def test_a_hybrid_target_on_vllm_025_to_028_is_served_the_nested_ids(arch):
    for version in ("0.25.0", "0.28.1"):
        plan = engines.serve_plan("vllm", version, SPECFORGE_DRAFT, 64, arch)
        assert plan.config_key == engines.NESTED_KEY and plan.layer_ids == [1, 31, 60]


def test_from_029_and_for_dense_attention_targets_model_runner_v2_reads_the_top_level_only():
    assert engines.serve_plan("vllm", "0.29.0", SPECFORGE_DRAFT, 64, "Qwen3_5ForConditionalGeneration").used_default
    assert engines.serve_plan("vllm", "0.26.0", SPECFORGE_DRAFT, 64, "Qwen3ForCausalLM").used_default
