"""target_weights: a GLM-5 `index_topk_pattern` written as a JSON list of "F"/"S" (round 26 review).

Layers marked "S" reuse the previous full layer's top-k and build no lightning indexer
(transformers modeling_glm_moe_dsa.py GlmMoeDsaAttention); the count read only the string form,
so a list fell to the every-layer default and a step's indexer weights were counted in full."""

from __future__ import annotations

from spec_debug.diagnose import target_weights

GLM5 = {"architectures": ["GlmMoeDsaForCausalLM"], "model_type": "glm_moe_dsa", "hidden_size": 6144,
        "num_hidden_layers": 4, "num_attention_heads": 64, "q_lora_rank": 2048, "kv_lora_rank": 512,
        "qk_nope_head_dim": 192, "qk_rope_head_dim": 64, "v_head_dim": 256, "intermediate_size": 12288,
        "vocab_size": 154880, "index_n_heads": 32, "index_head_dim": 128, "index_topk": 2048}
PER_LAYER = 2048 * 32 * 128 + 6144 * 128 + 6144 * 32


def _indexer_params(cfg):
    return sum(m.params for m in target_weights.decode_modules(cfg) if ".indexer." in m.name)


def test_a_pattern_list_skips_the_shared_layers_like_the_string():
    assert _indexer_params(dict(GLM5, index_topk_pattern="FSSF")) == 2 * PER_LAYER
    assert _indexer_params(dict(GLM5, index_topk_pattern=["F", "S", "S", "F"])) == 2 * PER_LAYER
    assert _indexer_params(GLM5) == 4 * PER_LAYER  # no pattern: every layer runs its indexer
