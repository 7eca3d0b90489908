"""Round 28 review: the probe folds a ModelOpt MIXED_PRECISION `quantized_layers` that names
every expert into one entry per experts block only where each expert names its whole set of
projections. An export that quantizes gate/up and leaves down_proj out (unquantized: the
throughput model reads it at 2 bytes) was folded to "...mlp.experts": NVFP4, and the throughput
model then read down_proj at 0.5 (routed experts 2 bytes gone from target_weights_line)."""

from __future__ import annotations

import copy

from spec_debug.diagnose import target_weights
from spec_debug.probes import hostfiles

NVFP4 = {"quant_algo": "NVFP4", "group_size": 16}


def _mixed(projections: tuple[str, ...], block: str = "mlp.experts") -> dict:
    layers = {f"model.layers.{i}.self_attn.o_proj": {"quant_algo": "FP8"} for i in range(4)}
    layers.update({f"model.layers.{i}.{block}.{e}.{p}": NVFP4 for i in range(1, 4) for e in range(8) for p in projections})
    return {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 1024,
            "intermediate_size": 4096, "moe_intermediate_size": 512, "num_hidden_layers": 4,
            "num_attention_heads": 8, "num_key_value_heads": 8, "q_lora_rank": 256, "kv_lora_rank": 128,
            "qk_nope_head_dim": 64, "qk_rope_head_dim": 32, "v_head_dim": 64, "n_routed_experts": 8,
            "n_shared_experts": 1, "num_experts_per_tok": 2, "first_k_dense_replace": 1, "vocab_size": 32000,
            "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                    "quantized_layers": layers}}


def _parts(config: dict) -> str:
    return target_weights.describe(target_weights.decode_weight_parts(config))


def test_experts_without_their_down_proj_stay_listed():
    for projections in (("gate_proj", "up_proj"), ("down_proj",)):
        config = _mixed(projections)
        before = copy.deepcopy(config)
        assert hostfiles.fold_expert_layers(config["quantization_config"]) == 0
        assert config == before and "routed experts 2" in _parts(config)


def test_whole_experts_still_fold_and_read_the_same():
    for projections in (("gate_proj", "up_proj", "down_proj"), ("gate_up_proj", "down_proj")):
        config = _mixed(projections)
        parts = _parts(config)
        assert hostfiles.fold_expert_layers(config["quantization_config"]) == 3 * (8 * len(projections) - 1)
        assert _parts(config) == parts
