"""Hardening 8: the throughput model on real target configs.

Each test is a user story spec-debug got wrong before; the source of every input is cited.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.throughput import (
    estimate_draft_cost_ratio,
    target_params_from_config,
)

# https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json (as quoted in tinygrad's
# test/external gpt-oss test), the keys the model reads; gpt-oss-120b differs in depth and experts.
GPT_OSS_20B = {"architectures": ["GptOssForCausalLM"], "experts_per_token": 4, "head_dim": 64, "hidden_size": 2880,
               "intermediate_size": 2880, "model_type": "gpt_oss", "num_attention_heads": 64,
               "num_experts_per_tok": 4, "num_hidden_layers": 24, "num_key_value_heads": 8, "num_local_experts": 32,
               "vocab_size": 201088}
GPT_OSS_120B = {**GPT_OSS_20B, "num_hidden_layers": 36, "num_local_experts": 128}
# https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json
MIXTRAL_8X7B = {"architectures": ["MixtralForCausalLM"], "hidden_size": 4096, "intermediate_size": 14336,
                "num_attention_heads": 32, "num_experts_per_tok": 2, "num_hidden_layers": 32,
                "num_key_value_heads": 8, "num_local_experts": 8, "vocab_size": 32000}


def test_moe_targets_without_moe_intermediate_size_read_their_top_k_experts():
    # OpenAI's gpt-oss model card: 3.6B (20b) and 5.1B (120b) active parameters per token;
    # before, one expert was counted: 1.8B and 2.5B
    assert target_params_from_config(GPT_OSS_20B) == pytest.approx(3.6e9, rel=0.02)
    assert target_params_from_config(GPT_OSS_120B) == pytest.approx(5.1e9, rel=0.02)
    # Mistral: Mixtral 8x7B uses 12.9B active parameters per token (embeddings counted twice there)
    assert target_params_from_config(MIXTRAL_8X7B) == pytest.approx(12.9e9, rel=0.03)


def test_the_draft_cost_of_a_gpt_oss_draft_is_not_doubled():
    # an EAGLE-3 head of gpt-oss-120b's width: one layer, the full vocabulary
    draft = {"hidden_size": 2880, "intermediate_size": 17280, "num_attention_heads": 64, "num_key_value_heads": 8,
             "head_dim": 64, "num_hidden_layers": 1, "draft_vocab_size": 201088}
    c = estimate_draft_cost_ratio(draft_config=draft, target_config=GPT_OSS_120B)
    # draft: fc 25M + first layer 190M + lm_head 579M = 0.79B, over 5.1B active (before: over 2.5B)
    assert c == pytest.approx(0.16, abs=0.01)
