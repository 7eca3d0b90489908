"""Round 29: a target config.json between 256 KiB and 2 MB whose per-expert quantization entries
cannot be folded (the experts' formats differ, as ModelOpt auto_quantize picks them) was sent
whole in model_configs' JSON. A run keeps 256 KiB of a step's output, so the JSON was cut and
the configs step failed with "output is not JSON: it is longer than the capture limit", the
draft lost with the target. Now the entries of experts 1..E-1 are dropped (the throughput model
counts a MoE layer by expert 0's projections) and the config is read."""

from __future__ import annotations

import copy
import json

from spec_debug.diagnose import target_weights
from spec_debug.probes import hostfiles, model_configs
from spec_debug.runner.output import DEFAULT_CAPTURE_LIMIT

FP8, NVFP4 = {"quant_algo": "FP8"}, {"quant_algo": "NVFP4", "group_size": 16}


def _qwen3_moe_auto_quantized() -> dict:
    """Qwen3-30B-A3B (48 layers, 128 experts, top-8) as a ModelOpt auto_quantize export names it:
    attention FP8, each expert NVFP4 or FP8 as the search chose (here every 5th FP8)."""
    layers = {f"model.layers.{i}.self_attn.{p}": FP8 for i in range(48) for p in ("q_proj", "k_proj", "v_proj", "o_proj")}
    layers.update({f"model.layers.{i}.mlp.experts.{e}.{p}": (FP8 if e % 5 == 0 else NVFP4)
                   for i in range(48) for e in range(128) for p in ("gate_proj", "up_proj", "down_proj")})
    return {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
            "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 48,
            "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128,
            "num_experts_per_tok": 8, "vocab_size": 151936, "max_position_embeddings": 40960,
            "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                    "kv_cache_quant_algo": "FP8", "quantized_layers": layers}}


def _parts(config: dict) -> str:
    return target_weights.describe(target_weights.decode_weight_parts(config))


def test_a_1_mb_export_whose_experts_differ_is_read_and_the_draft_kept(tmp_path):
    config = _qwen3_moe_auto_quantized()
    target, draft = tmp_path / "Qwen3-30B-A3B-AutoQuantize", tmp_path / "draft"
    target.mkdir()
    draft.mkdir()
    (target / "config.json").write_text(json.dumps(config))
    assert 256 * 1024 < (target / "config.json").stat().st_size < 2_000_000
    (draft / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 32000}))
    out = model_configs.run({"target_model": str(target), "draft_model": str(draft)})
    assert len(json.dumps(out)) < DEFAULT_CAPTURE_LIMIT
    sent = out["target"]
    assert out["draft"]["found"] is True and sent["found"] is True and "config_error" not in sent
    assert sent["quantized_layers_trimmed"] == 48 * 127 * 3
    assert sent["config"]["num_hidden_layers"] == 48
    # the throughput model reads the same bytes per weight as from the whole list: expert 0's
    # FP8 for every expert, where 4 in 5 are NVFP4, which the probe says (round 29 review)
    assert _parts(sent["config"]) == _parts(config)
    assert "14,688 of 18,432 expert projections are quantized otherwise" in sent["quantized_experts_differ"]


def test_a_config_still_too_large_once_trimmed_is_named_not_sent(tmp_path):
    """Past the bound by entries that are no expert's (a padded file): named in config_error."""
    config = _qwen3_moe_auto_quantized()
    config["quantization_config"]["exclude_modules"] = [f"model.layers.{i}.mlp.gate.{n}" for i in range(48) for n in range(200)]
    (tmp_path / "config.json").write_text(json.dumps(config))
    info = hostfiles.describe_model(str(tmp_path))
    assert info["found"] is False and info["config"] is None and "quantized_layers_trimmed" not in info
    assert "more than a probe sends (200,000): not read" in info["config_error"]


def test_an_older_modelopt_hf_quant_config_whose_experts_differ_is_trimmed_and_sent(tmp_path):
    """ModelOpt <= 0.29 kept the quantization beside config.json (hf_quant_config.json): the same
    trim applies there, and the throughput model reads it as config.json's."""
    config = _qwen3_moe_auto_quantized()
    quant = config.pop("quantization_config")
    (tmp_path / "config.json").write_text(json.dumps(config))
    (tmp_path / "hf_quant_config.json").write_text(json.dumps({"producer": {"name": "modelopt"}, "quantization": quant}))
    info = hostfiles.describe_model(str(tmp_path))
    assert info["found"] is True and info["quantized_layers_trimmed"] == 48 * 127 * 3
    sent = {**info["config"], "quantization_config": info["hf_quant_config"]}
    assert _parts(sent) == _parts({**config, "quantization_config": quant})
