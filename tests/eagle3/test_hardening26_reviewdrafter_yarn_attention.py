"""SD703 on yarn drafts: attention_factor, mscale and mscale_all_dim are compared as the one
factor transformers' _compute_yarn_parameters settles on (modeling_rope_utils.py), and
beta_fast/beta_slow as it reads them (`get(key) or 32`, `or 1`). Compared key by key (1da93a6),
a draft whose converter wrote the computed attention_factor, a null beta_fast, or an mscale
without mscale_all_dim (which transformers ignores) was told its RoPE differs from the target's
though it builds the same rotation."""

from __future__ import annotations

import math

from spec_debug.diagnose.checks.draft_config import check_rope

# Qwen/Qwen3-8B config.json with the yarn block its model card gives for 128k context
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32,
         "max_position_embeddings": 40960, "rope_theta": 1000000,
         "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                          "original_max_position_embeddings": 32768}}
# deepseek-ai/DeepSeek-V3 config.json rope_scaling (mscale == mscale_all_dim: factor 1.0)
DEEPSEEK = {"hidden_size": 7168, "num_attention_heads": 128, "max_position_embeddings": 163840,
            "rope_theta": 10000,
            "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                             "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                             "type": "yarn"}}


def _draft(target: dict, **scaling) -> dict:
    layer = {"hidden_size": target["hidden_size"], "num_attention_heads": 32,
             "max_position_embeddings": target["max_position_embeddings"],
             "rope_theta": target["rope_theta"],
             "rope_scaling": {**target["rope_scaling"], **scaling}}
    return {"speculators_model_type": "eagle3", "transformer_layer_config": layer}


def test_a_draft_writing_the_computed_attention_factor_and_null_betas_matches():
    computed = 0.1 * math.log(4.0) + 1.0  # what transformers derives from factor 4
    draft = _draft(QWEN3, attention_factor=computed, beta_fast=None, beta_slow=None, mscale=0.707)
    assert check_rope(draft, QWEN3) == []


def test_a_deepseek_draft_without_its_mscale_pair_still_differs():
    scaling = {k: v for k, v in DEEPSEEK["rope_scaling"].items() if not k.startswith("mscale")}
    draft = _draft(DEEPSEEK)
    draft["transformer_layer_config"]["rope_scaling"] = scaling
    [finding] = check_rope(draft, DEEPSEEK)
    assert finding.code == "SD703"
    line = next(e for e in finding.evidence if "attention factor" in e)
    assert "draft 1.36889, target 1" in line  # 0.1*ln(40)+1 vs mscale/mscale_all_dim = 1


def test_the_same_factor_spelled_as_attention_factor_matches_the_mscale_pair():
    draft = _draft(DEEPSEEK)
    scaling = draft["transformer_layer_config"]["rope_scaling"]
    del scaling["mscale"], scaling["mscale_all_dim"]
    scaling["attention_factor"] = 1.0
    assert check_rope(draft, DEEPSEEK) == []
