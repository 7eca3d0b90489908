"""Round 30: the throughput model counts a MoE layer's routed experts as one module named by
expert 0, and read it in expert 0's quantization format. A ModelOpt auto_quantize export of
Qwen3-30B-A3B whose experts are 1 in 5 FP8 (expert 0 among them) and the rest NVFP4 read at
1 byte per routed-expert weight, not the experts' mean 0.6: 3,340,238,848 bytes a decode step,
28% more than the 2,618,294,272 the checkpoint reads, from the whole list and from the config a
probe trims to expert 0's entries alike. Now the experts are counted at their mean bytes per
weight, and the trim keeps how many experts take each format. (The tests use a 24-layer,
64-expert cut of it, 250 kB of JSON: 1,981,284,352 bytes before, 1,620,312,064 now.)"""

from __future__ import annotations

import json

from spec_debug.diagnose import target_weights
from spec_debug.probes import hostfiles, model_configs
from spec_debug.runner.output import DEFAULT_CAPTURE_LIMIT

FP8, NVFP4 = {"quant_algo": "FP8"}, {"quant_algo": "NVFP4", "group_size": 16}


def _qwen3_30b_a3b(expert) -> dict:
    """Its first 24 layers and 64 experts, top-8; attention FP8, each expert's projections as
    `expert` picks (past the 200,000 bytes a probe sends untrimmed)."""
    layers = {f"model.layers.{i}.self_attn.{p}": FP8 for i in range(24) for p in ("q_proj", "k_proj", "v_proj", "o_proj")}
    layers.update({f"model.layers.{i}.mlp.experts.{e}.{p}": expert(e, p)
                   for i in range(24) for e in range(64) for p in ("gate_proj", "up_proj", "down_proj")})
    return {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
            "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 24,
            "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 64,
            "num_experts_per_tok": 8, "vocab_size": 151936,
            "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                    "kv_cache_quant_algo": "FP8", "quantized_layers": layers}}


def _step_bytes(config: dict) -> float:
    return sum(p.params * p.bytes_per_weight for p in target_weights.decode_weight_parts(config))


def test_experts_of_two_formats_are_counted_at_their_mean_whole_or_trimmed(tmp_path):
    config = _qwen3_30b_a3b(lambda e, p: FP8 if e % 5 == 0 else NVFP4)
    target, draft = tmp_path / "Qwen3-30B-A3B-AutoQuantize", tmp_path / "draft"
    target.mkdir()
    draft.mkdir()
    (target / "config.json").write_text(json.dumps(config))
    (draft / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 32000}))
    out = model_configs.run({"target_model": str(target), "draft_model": str(draft)})
    assert len(json.dumps(out)) < DEFAULT_CAPTURE_LIMIT
    sent = out["target"]["config"]
    assert out["target"]["quantized_layers_trimmed"] == 24 * 63 * 3
    # 13 of 64 experts FP8 (1 byte), 51 NVFP4 (0.5): 0.6015625 bytes per routed-expert weight
    assert sent["quantization_config"][hostfiles.EXPERT_FORMATS_KEY]["model.layers.7.mlp.experts.down_proj"] == {"FP8": 13, "NVFP4": 51}
    assert _step_bytes(config) == _step_bytes(sent) == 1_620_312_064  # was 1,981,284,352 (expert 0's FP8)
    assert "routed experts 0.601562 " in target_weights.describe(target_weights.decode_weight_parts(sent))
    assert "the throughput model counts the experts at their mean" in out["target"]["quantized_experts_differ"]


def test_an_expert_left_unquantized_counts_at_bf16(tmp_path):
    """Expert 5's down_proj not listed (ModelOpt left it bf16): 1 in 64 at 2 bytes, the rest NVFP4."""
    config = _qwen3_30b_a3b(lambda e, p: NVFP4)
    for i in range(24):
        del config["quantization_config"]["quantized_layers"][f"model.layers.{i}.mlp.experts.5.down_proj"]
    (tmp_path / "config.json").write_text(json.dumps(config))
    sent = hostfiles.describe_model(str(tmp_path))["config"]
    assert sent["quantization_config"][hostfiles.EXPERT_FORMATS_KEY]["model.layers.0.mlp.experts.down_proj"] == {"NVFP4": 63, hostfiles.UNQUANTIZED: 1}
    parts = {(p.part, p.bytes_per_weight): p.params for p in target_weights.decode_weight_parts(sent)}
    down = 24 * 2048 * 768 * 8
    assert parts[("routed experts", (63 * 0.5 + 2.0) / 64)] == down  # was read at expert 0's 0.5
    assert parts[("routed experts", 0.5)] == 2 * down
    assert _step_bytes(sent) == _step_bytes(config)


def test_experts_alike_keep_no_counts(tmp_path):
    """Gate/up NVFP4 and down FP8 in every expert: expert 0's entries say it all, nothing is added."""
    config = _qwen3_30b_a3b(lambda e, p: FP8 if p == "down_proj" else NVFP4)
    (tmp_path / "config.json").write_text(json.dumps(config))
    sent = hostfiles.describe_model(str(tmp_path))["config"]
    assert hostfiles.EXPERT_FORMATS_KEY not in sent["quantization_config"]
    assert _step_bytes(sent) == _step_bytes(config)
