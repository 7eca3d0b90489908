"""Review of round 31 (b4b43437): the weights line names each part's bytes where the skip list
keeps more than lm_head and the routers in bf16, but only `modules_to_not_convert` was read. vLLM's
Fp8Config reads `ignored_layers` (quantization.precision_rule reads both, and GPTQModel's per-module
`dynamic` bits for gptq/awq), so an FP8 target with `ignored_layers: ["self_attn"]` or a GPTQ one
whose `dynamic` leaves attention unquantized still read "decoder weights counted at 1 byte(s) each"
beside a c that counted that attention at 2."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.diagnose.throughput import quantized_weight_bytes

QWEN3_MOE = {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
             "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 48,
             "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128,
             "num_experts_per_tok": 8, "vocab_size": 151936}


def _line(quantization: dict) -> str:
    return throughput_step.target_weights_line({"configs": {"target_config": {**QWEN3_MOE, "quantization_config": quantization}}})


def test_fp8_ignored_layers_and_gptq_dynamic_are_said_part_by_part():
    fp8 = {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128],
           "ignored_layers": ["self_attn"]}
    assert quantized_weight_bytes({"quantization_config": fp8}) is None  # was 1.0
    assert "counted part by part" in _line(fp8) and "attention 2 " in _line(fp8)
    gptq = {"quant_method": "gptq", "bits": 4, "group_size": 128, "dynamic": {"-:.*self_attn.*": {}}}
    assert quantized_weight_bytes({"quantization_config": gptq}) is None  # was 0.5
    assert "attention 2 " in _line(gptq) and "routed experts 0.5 " in _line(gptq)


def test_router_only_ignored_layers_and_a_skip_list_the_rule_does_not_read_stay_uniform():
    fp8 = {"quant_method": "fp8", "weight_block_size": [128, 128], "ignored_layers": ["mlp.gate", "lm_head"]}
    assert quantized_weight_bytes({"quantization_config": fp8}) == 1.0
    # a router by that name (gpt-oss's spelling) is no more of the decoder than `gate`
    routers = {"quant_method": "fp8", "modules_to_not_convert": ["model.layers.*.mlp.router", "lm_head"]}
    assert quantized_weight_bytes({"quantization_config": routers}) == 1.0
    # a string is no list to precision_rule (nothing skipped): the whole decoder at 1 byte
    odd = {"quant_method": "fp8", "modules_to_not_convert": "self_attn"}
    assert quantized_weight_bytes({"quantization_config": odd}) == 1.0
    assert "decoder weights counted at 1 byte(s) each" in _line(odd)
