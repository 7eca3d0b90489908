"""target_weights: DeepSeek Sparse Attention's lightning indexer is read every decode step (round 26).

DeepSeek-V3.2 (config.json index_n_heads 64, index_head_dim 128 over q_lora_rank 1536) runs
wq_b, wk and weights_proj in each of its 61 layers for every token (transformers
modeling_deepseek_v32.py DeepseekV32Indexer); GLM-5 (glm_moe_dsa) skips them in the layers its
indexer_types marks "shared". Counted as DeepSeek-V3, a V3.2 step read 0.85B parameters fewer."""

from __future__ import annotations

from spec_debug.diagnose import target_weights

# deepseek-ai/DeepSeek-V3.2 config.json (the shapes that matter here)
V32 = {"architectures": ["DeepseekV32ForCausalLM"], "model_type": "deepseek_v32", "hidden_size": 7168,
       "num_hidden_layers": 61, "num_attention_heads": 128, "q_lora_rank": 1536, "kv_lora_rank": 512,
       "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "intermediate_size": 18432,
       "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1,
       "num_experts_per_tok": 8, "first_k_dense_replace": 3, "vocab_size": 129280,
       "index_n_heads": 64, "index_head_dim": 128, "index_topk": 2048,
       "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "activation_scheme": "dynamic",
                               "weight_block_size": [128, 128]}}
PER_LAYER = 1536 * 64 * 128 + 7168 * 128 + 7168 * 64


def _indexer_params(cfg):
    return sum(m.params for m in target_weights.decode_modules(cfg) if ".indexer." in m.name)


def test_deepseek_v32_reads_its_indexer_in_every_layer():
    assert _indexer_params(V32) == 61 * PER_LAYER  # 0.85B
    v3 = {k: v for k, v in V32.items() if not k.startswith("index_")}
    gap = (sum(p.params for p in target_weights.decode_weight_parts(V32))
           - sum(p.params for p in target_weights.decode_weight_parts(v3)))
    assert gap == 61 * PER_LAYER


def test_glm5_shared_layers_build_no_indexer():
    glm = dict(V32, model_type="glm_moe_dsa", num_hidden_layers=4, index_n_heads=32,
               indexer_types=["full", "shared", "full", "shared"])
    per = 1536 * 32 * 128 + 7168 * 128 + 7168 * 32
    assert _indexer_params(glm) == 2 * per
    pattern = dict(glm, indexer_types=None, index_topk_pattern="FSSF")
    assert _indexer_params(pattern) == 2 * per
