"""Round 28 review: a config.json past 2,000,000 bytes is read now (to 32 MiB) so that a MoE
export's per-expert quantization entries can be folded. One whose entries cannot be folded (the
experts' formats differ, as ModelOpt auto_quantize picks them) was then sent whole: 2.4 MB of
probe JSON, cut at the run's --capture-limit (256 KiB), and model_configs lost the draft with
the target ("probe model_configs: ..."). It is named in config_error, as before round 28."""

from __future__ import annotations

import json

from spec_debug.probes import model_configs
from spec_debug.runner.output import DEFAULT_CAPTURE_LIMIT

FP8, NVFP4 = {"quant_algo": "FP8"}, {"quant_algo": "NVFP4", "group_size": 16}


def test_an_export_whose_experts_differ_is_named_and_the_draft_kept(tmp_path):
    layers = {f"model.layers.{i}.mlp.experts.{e}.{p}": (FP8 if e % 7 == 0 else NVFP4)
              for i in range(3, 39) for e in range(256) for p in ("gate_proj", "up_proj", "down_proj")}
    target = tmp_path / "DeepSeek-V3-AutoQuantize"
    target.mkdir()
    (target / "config.json").write_text(json.dumps({
        "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_hidden_layers": 61,
        "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": layers}}))
    draft = tmp_path / "draft"
    draft.mkdir()
    (draft / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 32000}))
    out = model_configs.run({"target_model": str(target), "draft_model": str(draft)})
    assert len(json.dumps(out)) < DEFAULT_CAPTURE_LIMIT
    # round 29: the entries of experts 1..255 are dropped (the throughput model reads expert 0's)
    # and the target is read; a config still too large once trimmed is named
    # (test_hardening29_engines_unfoldable_config.py)
    assert out["draft"]["found"] is True and out["target"]["found"] is True
    assert out["target"]["quantized_layers_trimmed"] == 36 * 255 * 3
    # expert 0 is FP8, 6 in 7 experts NVFP4: the throughput model, which counts every expert in
    # expert 0's format, overcounts them, and the probe says so (round 29 review)
    assert out["target"]["quantized_experts_differ"].startswith("23,652 of 27,648 expert projections")


def test_a_flag_file_past_2_mb_is_not_sent(tmp_path):
    """`vllm serve --config flags.yaml`: its text goes in the probe's JSON. Round 28 raised the
    bound to the 32 MiB a MoE config.json is read to, so a 2.1 MB flag file was sent whole."""
    from spec_debug.probes import launch_flags

    flags = tmp_path / "flags.yaml"
    flags.write_text("speculative-config: '{\"method\": \"eagle3\"}'\n" + "# padding\n" * 210_000)
    info = launch_flags.read_config_file(["vllm", "serve", "--config", str(flags)], None)
    assert info["text"] is None and info["error"] == "larger than 2000000 bytes"


def test_an_hf_quant_config_past_the_bound_is_not_sent_nor_counted(tmp_path):
    """ModelOpt <= 0.29 kept the quantization in hf_quant_config.json: one that cannot be folded
    under the bound is left out as before round 28, and no folded count names it."""
    from spec_debug.probes import hostfiles

    layers = {f"model.layers.{i}.mlp.experts.{e}.{p}": (FP8 if e % 7 == 0 else NVFP4)
              for i in range(1, 37) for e in range(256) for p in ("gate_proj", "up_proj", "down_proj")}
    layers.update({f"model.layers.0.mlp.experts.{e}.{p}": NVFP4 for e in range(256) for p in ("gate_proj", "up_proj", "down_proj")})
    folder = tmp_path / "old-modelopt-export"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"architectures": ["DeepseekV3ForCausalLM"], "num_hidden_layers": 37}))
    (folder / "hf_quant_config.json").write_text(json.dumps({"quantization": {
        "quant_algo": "MIXED_PRECISION", "quantized_layers": layers,
        # round 29: per-expert entries are trimmed to expert 0's; a padded file stays past the bound
        "exclude_modules": [f"model.layers.{i}.mlp.gate.{n}" for i in range(37) for n in range(300)]}}))
    info = hostfiles.describe_model(str(folder))
    assert info["found"] is True and "hf_quant_config" not in info and "quantized_layers_folded" not in info
    assert "quantized_layers_trimmed" not in info
