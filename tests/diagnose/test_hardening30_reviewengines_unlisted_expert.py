"""Round 30 review: the throughput model reads a MoE layer's experts at their mean bytes per weight
where their ModelOpt formats differ (8e1e5471), counting an expert with no `quantized_layers` entry
for a projection as unquantized (bf16). An expert with no entry at all (ModelOpt auto_quantize left
it bf16) was not counted: its block's other experts all NVFP4 read as one format, 0.5 bytes per
routed-expert weight, where 1 of 64 experts at 2 bytes makes 0.5234375, and the note on the trimmed
config said nothing. Now the experts below the last one listed are all counted."""

from __future__ import annotations

import json

from spec_debug.diagnose import target_weights
from spec_debug.probes import hostfiles

NVFP4 = {"quant_algo": "NVFP4", "group_size": 16}


def test_an_expert_with_no_entry_counts_at_bf16(tmp_path):
    layers = {f"model.layers.{i}.self_attn.{p}": {"quant_algo": "FP8"} for i in range(24) for p in ("q_proj", "k_proj", "v_proj", "o_proj")}
    layers.update({f"model.layers.{i}.mlp.experts.{e}.{p}": NVFP4
                   for i in range(24) for e in range(64) if e != 5 for p in ("gate_proj", "up_proj", "down_proj")})
    config = {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
              "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 24,
              "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 64,
              "num_experts_per_tok": 8, "vocab_size": 151936,
              "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": layers}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    described = hostfiles.describe_model(str(tmp_path))
    sent = described["config"]
    assert sent["quantization_config"][hostfiles.EXPERT_FORMATS_KEY]["model.layers.0.mlp.experts.down_proj"] == {
        "NVFP4": 63, hostfiles.UNQUANTIZED: 1}
    mean = (63 * 0.5 + 2.0) / 64
    for cfg in (config, sent):  # the whole list and the trimmed one alike
        parts = {(p.part, p.bytes_per_weight): p.params for p in target_weights.decode_weight_parts(cfg)}
        assert parts[("routed experts", mean)] == 24 * 3 * 2048 * 768 * 8  # was read at 0.5
    assert described["quantized_experts_differ"].startswith("72 of 4,608 expert projections")
