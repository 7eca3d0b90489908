"""Hardening 11: the draft cost c of a draft served next to a quantized target.

Decode is memory-bound: a pass costs the bytes of weights it reads. The EAGLE-3 draft is served
in bf16, the incident's kind of target (DeepSeek-V3 / Kimi-K2 family) in FP8, so the target reads
one byte per decoder weight where the draft reads two. Counting parameters alone gave half the
real c, and with it an optimistic predicted throughput and break-even accept length.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import throughput_step
from spec_debug.diagnose.steps.throughput_step import draft_cost_from_configs
from spec_debug.diagnose.throughput import quantized_weight_bytes
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_hardening6_diagnostics import DEEPSEEK_V3_CONFIG
from tests.diagnose.test_throughput_served_settings import DECODE, STARTUP

# an EAGLE-3 head for a 7168-wide target (EAGLE3.md section 3: H=7168, 3 aux layers, one decoder
# layer, a 32000-token draft vocabulary), as SpecForge writes its config.json
EAGLE3_DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 7168,
                "num_attention_heads": 56, "num_key_value_heads": 8, "head_dim": 128,
                "intermediate_size": 18432, "num_hidden_layers": 1, "vocab_size": 129280,
                "draft_vocab_size": 32000, "torch_dtype": "bfloat16", "max_position_embeddings": 163840,
                "rms_norm_eps": 1e-06, "rope_theta": 10000,
                "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 29, 57]}}
BF16_TARGET = {k: v for k, v in DEEPSEEK_V3_CONFIG.items() if k != "quantization_config"}


def test_an_fp8_target_reads_half_the_bytes_so_the_draft_costs_about_twice_as_much():
    assert DEEPSEEK_V3_CONFIG["quantization_config"]["quant_method"] == "fp8"  # the shipped checkpoint
    fp8 = draft_cost_from_configs(EAGLE3_DRAFT, DEEPSEEK_V3_CONFIG)
    bf16 = draft_cost_from_configs(EAGLE3_DRAFT, BF16_TARGET)
    assert fp8 is not None and bf16 is not None
    # the decoder halves, lm_head (bf16 in the checkpoint, ~2.5% of the weights read) does not;
    # before: fp8 == bf16
    assert 1.9 * bf16 < fp8 < 2.0 * bf16


def test_a_wrappers_top_level_quantization_config_covers_its_language_model():
    # a multimodal wrapper keeps the decoder under text_config and quantization_config at the top
    wrapper = {"architectures": ["KimiK25ForConditionalGeneration"], "model_type": "kimi_k25",
               "quantization_config": DEEPSEEK_V3_CONFIG["quantization_config"], "text_config": BF16_TARGET}
    assert draft_cost_from_configs(EAGLE3_DRAFT, wrapper) == draft_cost_from_configs(EAGLE3_DRAFT, DEEPSEEK_V3_CONFIG)


@pytest.mark.parametrize("quantization, weight_bytes", [
    # AutoAWQ / AutoGPTQ 4-bit checkpoints: every decoder Linear
    ({"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True, "version": "gemm"}, 0.5),
    ({"quant_method": "gptq", "bits": 8, "group_size": 128, "desc_act": False}, 1.0),
    # llm-compressor FP8-dynamic (RedHatAI): one group, only lm_head left out
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head"],
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float"}}}}, 1.0),
    # llm-compressor's MoE recipes (examples/quantization_w8a8_fp8, FP8_BLOCK for DeepSeek-style
    # models) leave the routers in bf16: `ignore=["lm_head", "re:.*mlp.gate$"]`, or the saved names
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head", "re:.*mlp.gate$"],
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float"}}}}, 1.0),
    ({"quant_method": "compressed-tensors",
      "ignore": ["model.layers.0.mlp.gate", "model.layers.1.mlp.gate", "lm_head"],
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "float"}}}}, 0.5),
    # a recipe that keeps the dense MLPs' gate_proj in bf16 is not a router: not modelled
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head", "model.layers.0.mlp.gate_proj"],
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float"}}}}, None),
    # part of the decoder left in bf16 (attention and shared experts, as the INT4 Kimi-K2 releases
    # do; abbreviated): not modelled, counted as bf16 as before rather than guessed
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*"],
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "int"}}}}, None),
    # gpt-oss: MXFP4 experts, attention bf16: not modelled either
    ({"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn", "lm_head"]}, None),
    ({"quant_method": "bitsandbytes", "load_in_4bit": "yes"}, None),
    ({"quant_method": "awq", "bits": "4"}, None),  # a hand-edited config: not a number of bits
    # a group that quantizes activations only (`"weights": null`): the weights stay bf16
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head"],
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": None,
                                    "input_activations": {"num_bits": 8, "type": "float"}}}}, None),
])
def test_bytes_per_decoder_weight_by_quantization_config(quantization, weight_bytes):
    assert quantized_weight_bytes({"quantization_config": quantization}) == weight_bytes
    assert quantized_weight_bytes({}) is None and quantized_weight_bytes({"quantization_config": "fp8"}) is None


def test_the_incident_report_says_how_the_fp8_target_was_counted():
    # the incident's numbers (54.8 tok/s against a 90 tok/s baseline, INCIDENT.md) on an FP8
    # DeepSeek-V3-family target: the SD501 evidence gives c and says why it is what it is
    facts = throughput_step.parse({"found": True, "path": "server.log", "args": {"baseline_tok_s": "90"},
                                   "lines": [STARTUP] + [DECODE.format(i=i) for i in range(3)]})
    host = {"configs": {"draft_config": EAGLE3_DRAFT, "target_config": DEEPSEEK_V3_CONFIG},
            "eval": {"reference": {"steps": 3, "reference": "target_argmax",
                                   "target_conditional_acceptance": [0.75, 0.7, 0.6]}}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**host, **facts})
    [slow] = [f for f in throughput_step.check(ctx) if f.code == "SD501"]
    c = draft_cost_from_configs(EAGLE3_DRAFT, DEEPSEEK_V3_CONFIG)
    [line] = [e for e in slow.evidence if "a draft pass costs" in e]
    assert f"c = {c:.2f} target steps" in line
    assert "fp8 decoder weights counted at 1 byte(s) each, the bf16 draft's at 2" in line
    # a bf16 target: the line as before, nothing about bytes
    host["configs"]["target_config"] = BF16_TARGET
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**host, **facts})
    [slow] = [f for f in throughput_step.check(ctx) if f.code == "SD501"]
    assert any("target steps (from the configs)" in e for e in slow.evidence)
