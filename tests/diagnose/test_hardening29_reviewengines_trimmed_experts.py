"""Round 29 review: a target config past 200,000 bytes keeps only expert 0's per-expert
quantization entries (trim_expert_layers), and the throughput model counts every expert in
expert 0's format. Where the experts' formats differ (ModelOpt auto_quantize) that was said
nowhere: the probe sent quantized_layers_trimmed, a count, and the throughput model read a
Qwen3-30B-A3B export whose experts are 4 in 5 NVFP4 at 1 byte per routed-expert weight (expert 0
is FP8; the experts average 0.6), 28% more decode bytes than the checkpoint reads. Now
quantized_experts_differ says so. Where every expert has expert 0's entries (gate/up NVFP4 and
down FP8 in each: no fold, one entry per block cannot say it) nothing is said and the throughput
model reads what it read from the whole list."""

from __future__ import annotations

import json

from spec_debug.diagnose import target_weights
from spec_debug.probes import hostfiles

FP8, NVFP4 = {"quant_algo": "FP8"}, {"quant_algo": "NVFP4", "group_size": 16}


def _qwen3_moe(expert) -> dict:
    """A 24-layer, 64-expert Qwen3-MoE as a ModelOpt auto_quantize export names its Linears
    (250 kB of JSON)."""
    layers = {f"model.layers.{i}.self_attn.{p}": FP8 for i in range(24) for p in ("q_proj", "k_proj", "v_proj", "o_proj")}
    layers.update({f"model.layers.{i}.mlp.experts.{e}.{p}": expert(e, p)
                   for i in range(24) for e in range(64) for p in ("gate_proj", "up_proj", "down_proj")})
    return {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
            "moe_intermediate_size": 768, "num_hidden_layers": 24, "num_attention_heads": 32,
            "num_key_value_heads": 4, "head_dim": 128, "num_experts": 64, "num_experts_per_tok": 8,
            "vocab_size": 151936, "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                                          "quantized_layers": layers}}


def test_experts_whose_formats_differ_are_said_to(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(_qwen3_moe(lambda e, p: FP8 if e % 5 == 0 else NVFP4)))
    info = hostfiles.describe_model(str(tmp_path))
    assert info["found"] is True and info["quantized_layers_trimmed"] == 24 * 63 * 3
    assert info["quantized_experts_differ"].startswith(
        "3,672 of 4,608 expert projections are quantized otherwise than expert 0's (NVFP4 on 3,672, FP8 on 936)")


def test_experts_alike_are_trimmed_without_a_word_and_read_the_same(tmp_path):
    config = _qwen3_moe(lambda e, p: FP8 if p == "down_proj" else NVFP4)
    (tmp_path / "config.json").write_text(json.dumps(config))
    info = hostfiles.describe_model(str(tmp_path))
    assert info["quantized_layers_trimmed"] == 24 * 63 * 3 and "quantized_experts_differ" not in info
    read = target_weights.describe(target_weights.decode_weight_parts(info["config"]))
    assert read == target_weights.describe(target_weights.decode_weight_parts(config))


def test_an_hf_quant_config_left_out_is_named(tmp_path):
    """Past the bound once folded and trimmed (per-Linear entries of a dense model, which no fold
    or trim shortens): it was left out without a word, and the throughput model counted the
    NVFP4/FP8 export's weights at bf16's 2 bytes. A 230 kB one was sent before round 29."""
    layers = {f"model.layers.{i}.{p}": (FP8 if i % 3 else NVFP4) for i in range(510)
              for p in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                        "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj")}
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 510}))
    (tmp_path / "hf_quant_config.json").write_text(json.dumps({"quantization": {"quant_algo": "MIXED_PRECISION",
                                                                                  "quantized_layers": layers}}))
    info = hostfiles.describe_model(str(tmp_path))
    assert info["found"] is True and "hf_quant_config" not in info
    assert info["hf_quant_config_error"].endswith("more than a probe sends (200,000): not read, the model's "
                                                  "quantization unknown here (its weights are counted at bf16's 2 bytes)")


def test_an_expert_projection_left_unquantized_is_said_to_differ(tmp_path):
    """Expert 5's down_proj not listed (ModelOpt left it bf16): the block does not fold, the trim
    keeps expert 0's NVFP4 down_proj, and expert 5's bf16 one was not counted as differing."""
    config = _qwen3_moe(lambda e, p: NVFP4)
    layers = config["quantization_config"]["quantized_layers"]
    for i in range(24):
        del layers[f"model.layers.{i}.mlp.experts.5.down_proj"]
    (tmp_path / "config.json").write_text(json.dumps(config))
    info = hostfiles.describe_model(str(tmp_path))
    assert info["quantized_layers_trimmed"] == 24 * 63 * 3 - 24
    assert info["quantized_experts_differ"].startswith(
        "24 of 4,608 expert projections are quantized otherwise than expert 0's (NVFP4 on 4,584, unquantized (not listed) on 24)")
