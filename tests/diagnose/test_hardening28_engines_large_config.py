"""A MoE export's config.json of several megabytes (round 28).

ModelOpt MIXED_PRECISION exports (FP8 attention, NVFP4 experts) name every expert's projections
in quantization_config.quantized_layers (NVIDIA/Model-Optimizer#929, vllm-project/vllm#35047):
5.2 MB for DeepSeek-V3 (58 MoE layers x 256 experts x 3). The probes skipped any config.json
over 2,000,000 bytes ("larger than 2000000 bytes, not read"): the target read as having no
config. Now it is read (to a 32 MiB bound, counted as it is read, not from stat), and the
per-expert entries are folded into one per experts block where that loses nothing, so the
probe's JSON fits in what a run keeps of a step's output (256 KiB)."""

from __future__ import annotations

import json
import os

from spec_debug.diagnose import target_weights
from spec_debug.probes import hostfiles, model_configs
from spec_debug.runner.output import DEFAULT_CAPTURE_LIMIT


FP8, NVFP4 = {"quant_algo": "FP8"}, {"quant_algo": "NVFP4", "group_size": 16}


def _deepseek_v3_mixed(experts: int = 256) -> dict:
    """DeepSeek-V3 as a ModelOpt MIXED_PRECISION export names its layers."""
    layers: dict = {}
    for i in range(61):
        for proj in ("q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"):
            layers[f"model.layers.{i}.self_attn.{proj}"] = FP8
        mlp = f"model.layers.{i}.mlp"
        if i < 3:
            layers.update({f"{mlp}.{p}": FP8 for p in ("gate_proj", "up_proj", "down_proj")})
            continue
        for e in range(experts):
            for proj in ("gate_proj", "up_proj", "down_proj"):
                layers[f"{mlp}.experts.{e}.{proj}"] = NVFP4
        layers.update({f"{mlp}.shared_experts.{p}": FP8 for p in ("gate_proj", "up_proj", "down_proj")})
    return {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 7168,
            "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_hidden_layers": 61,
            "num_attention_heads": 128, "num_key_value_heads": 128, "q_lora_rank": 1536,
            "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
            "n_routed_experts": experts, "n_shared_experts": 1, "num_experts_per_tok": 8,
            "first_k_dense_replace": 3, "vocab_size": 129280,
            "quantization_config": {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
                                    "kv_cache_quant_algo": "FP8", "quantized_layers": layers}}


def _indented(config: dict) -> str:
    """json.dumps(config, indent=2), as save_pretrained writes it, at the speed of a test: the
    45,000 entries of quantized_layers are written from the two distinct entries' text."""
    quant = config["quantization_config"]
    head = json.dumps({**config, "quantization_config": {**quant, "quantized_layers": {"@": 0}}}, indent=2)
    entries = {id(v): json.dumps(v, indent=2).replace("\n", "\n      ") for v in (FP8, NVFP4)}
    body = ",\n".join(f'      "{k}": {entries[id(v)]}' for k, v in quant["quantized_layers"].items())
    return head.replace('      "@": 0', body)


def _folder(tmp_path, config: dict):
    folder = tmp_path / "DeepSeek-V3-NVFP4"
    folder.mkdir()
    text = _indented(config)
    (folder / "config.json").write_text(text)
    return folder, len(text)


def test_a_5_mb_moe_export_config_is_read_and_its_probe_json_fits_the_record(tmp_path):
    config = _deepseek_v3_mixed()
    folder, size = _folder(tmp_path, config)
    assert size > 5_000_000
    out = model_configs.run({"target_model": str(folder)})
    target = out["target"]
    assert target["found"] is True and "config_error" not in target
    assert target["quantized_layers_folded"] == 58 * 256 * 3 - 58
    assert len(json.dumps(out)) < DEFAULT_CAPTURE_LIMIT // 4
    # the throughput model reads the same bytes per weight from the folded config
    read = target_weights.describe(target_weights.decode_weight_parts(target["config"]))
    assert read == target_weights.describe(target_weights.decode_weight_parts(config))
    assert target["config"]["quantization_config"]["quantized_layers"]["model.layers.3.mlp.experts"] == {
        "quant_algo": "NVFP4", "group_size": 16}


def test_experts_that_differ_or_are_missing_stay_listed():
    def quant(entries):
        return {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": entries}

    differ = quant({"m.experts.0.w1": NVFP4, "m.experts.1.w1": FP8})
    gap = quant({"m.experts.0.w1": NVFP4, "m.experts.2.w1": NVFP4})
    for config in (differ, gap):
        before = json.dumps(config)
        assert hostfiles.fold_expert_layers(config) == 0 and json.dumps(config) == before
    same = quant({"a": FP8, **{f"m.experts.{e}.{w}": NVFP4 for e in (0, 1) for w in ("w1", "w2", "w3")}, "z": FP8})
    assert hostfiles.fold_expert_layers(same) == 5
    assert list(same["quantized_layers"]) == ["a", "m.experts", "z"]


def test_the_bound_is_counted_as_the_file_is_read_not_from_stat(tmp_path, monkeypatch):
    """A /proc file says 0 bytes in stat and holds more: it was called empty (a copy cut
    short); a file still being written past the bound would have been read whole."""
    monkeypatch.setattr(hostfiles, "MAX_CONFIG_BYTES", 64)
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").symlink_to("/proc/self/mountinfo")
    config, problem = hostfiles.config_and_problem(folder)
    assert config is None and problem.endswith("larger than 64 bytes, not read as a model config; "
                                               "check that it is the model's config.json")
    (folder / "config.json").unlink()
    (folder / "config.json").write_text(json.dumps({"pad": "x" * 100}))
    assert "larger than 64 bytes" in hostfiles.config_and_problem(folder)[1]


def test_a_flag_file_that_is_a_device_or_a_pipe_is_named_not_read(tmp_path):
    """`vllm serve --config /dev/stdin` (or a link to /dev/zero): getsize said 0 and read()
    never ended; a FIFO blocked it."""
    from spec_debug.probes import launch_flags

    fifo = tmp_path / "flags.yaml"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        info = launch_flags.read_config_file(["vllm", "serve", "--config", path], None)
        assert info["text"] is None and info["error"].startswith("not a regular file (a pipe or a device)")
    flags = tmp_path / "ok.yaml"
    flags.write_text("speculative-config: '{\"method\": \"eagle3\"}'\n")
    assert launch_flags.read_config_file(["vllm", "serve", "--config", str(flags)], None)["error"] is None
