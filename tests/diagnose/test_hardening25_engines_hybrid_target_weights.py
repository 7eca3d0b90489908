"""A hybrid Qwen3-Next / Qwen3.5 target's linear-attention layers are counted as they are (round 25).

Qwen3-Next and Qwen3.5 (SpecForge trains EAGLE-3 drafts for Qwen3-Next) alternate three Gated
DeltaNet layers with one gated full-attention layer (transformers modeling_qwen3_next.py
Qwen3NextGatedDeltaNet / Qwen3NextAttention, modeling_qwen3_5.py). The target cost counted every
layer as plain llama attention: a Qwen3-Next-80B-A3B step read 0.91B attention weights instead
of 1.54B (2.88B of 3.51B in all), so the draft cost c was ~20% too high. The per-module counts
below were checked against the transformers 5.19 modules built on the meta device (by hand, to
keep this test fast)."""

from __future__ import annotations

from spec_debug.diagnose.target_weights import decode_modules, decode_weight_parts

# Qwen/Qwen3-Next-80B-A3B-Instruct config.json (the keys the cost reads)
QWEN3_NEXT = {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "hidden_size": 2048,
              "num_hidden_layers": 48, "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256,
              "intermediate_size": 5120, "moe_intermediate_size": 512, "num_experts": 512,
              "num_experts_per_tok": 10, "shared_expert_intermediate_size": 512, "decoder_sparse_step": 1,
              "mlp_only_layers": [], "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
              "linear_key_head_dim": 128, "linear_num_key_heads": 16, "linear_num_value_heads": 32,
              "linear_value_head_dim": 128, "vocab_size": 151936, "tie_word_embeddings": False}


def _attention(cfg: dict, layer: int) -> dict[str, int]:
    prefix = f"model.layers.{layer}."
    return {m.name[len(prefix):]: m.params for m in decode_modules(cfg)
            if m.part == "attention" and m.name.startswith(prefix)}


def test_qwen3_next_layers_are_gated_deltanet_then_gated_full_attention():
    assert _attention(QWEN3_NEXT, 0) == {"linear_attn.in_proj_qkvz": 2048 * 12288,
                                         "linear_attn.in_proj_ba": 2048 * 64, "linear_attn.out_proj": 4096 * 2048}
    assert _attention(QWEN3_NEXT, 3) == {"self_attn.q_proj": 2048 * 8192, "self_attn.k_proj": 2048 * 512,
                                         "self_attn.v_proj": 2048 * 512, "self_attn.o_proj": 4096 * 2048}
    parts = {p.part: p.params for p in decode_weight_parts(QWEN3_NEXT)}
    assert parts["attention"] == 1_539_833_856
    assert round(sum(parts.values()) / 1e9, 2) == 3.51  # "3B activated" + the 0.31B lm_head


def test_qwen35_names_its_projections_apart_and_reads_layer_types():
    text = {**QWEN3_NEXT, "model_type": "qwen3_5_text", "layer_types": ["full_attention", "linear_attention"] * 24}
    assert set(_attention(text, 1)) == {"linear_attn.in_proj_qkv", "linear_attn.in_proj_z", "linear_attn.in_proj_b",
                                        "linear_attn.in_proj_a", "linear_attn.out_proj"}
    assert sum(_attention(text, 1).values()) == sum(_attention(QWEN3_NEXT, 0).values())
    assert "self_attn.q_proj" in _attention(text, 0)


def test_other_targets_are_counted_as_before():
    llama = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}
    assert _attention(llama, 0)["self_attn.q_proj"] == 4096 * 4096
