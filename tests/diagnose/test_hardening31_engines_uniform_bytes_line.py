"""Round 31: the throughput evidence said "the target's awq decoder weights counted at 0.5 byte(s)
each" for an AutoAWQ target that keeps its attention in half precision (`modules_to_not_convert`:
["self_attn"], transformers AwqConfig), while c itself counted that attention at 2 bytes
(quantization.precision_rule): throughput.quantized_weight_bytes read fp8 / fbgemm_fp8 / gptq / awq
as uniform whatever their skip list. Now a skip list beyond lm_head and the routers makes the line
name each part's bytes; MiniMax-M2's FP8 list (["gate", "e_score_correction_bias", "lm_head"])
still reads as the whole decoder at 1 byte."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.diagnose.throughput import quantized_weight_bytes

QWEN3_MOE = {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
             "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 48,
             "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128,
             "num_experts_per_tok": 8, "vocab_size": 151936}


def _line(quantization: dict) -> str | None:
    return throughput_step.target_weights_line({"configs": {"target_config": {**QWEN3_MOE, "quantization_config": quantization}}})


def test_awq_with_attention_kept_half_is_said_part_by_part():
    awq = {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm",
           "modules_to_not_convert": ["self_attn"]}
    assert quantized_weight_bytes({"quantization_config": awq}) is None  # was 0.5
    line = _line(awq)
    assert "counted part by part" in line and "attention 2 " in line and "routed experts 0.5 " in line


def test_skip_lists_of_routers_alone_stay_uniform():
    minimax_m2 = {"quant_method": "fp8", "fmt": "float8_e4m3fn", "activation_scheme": "dynamic",
                  "weight_block_size": [128, 128], "modules_to_not_convert": ["gate", "e_score_correction_bias", "lm_head"]}
    assert quantized_weight_bytes({"quantization_config": minimax_m2}) == 1.0
    assert "decoder weights counted at 1 byte(s) each" in _line(minimax_m2)
    assert quantized_weight_bytes({"quantization_config": {"quant_method": "awq", "bits": 4, "modules_to_not_convert": None}}) == 0.5
