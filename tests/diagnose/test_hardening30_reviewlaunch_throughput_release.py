"""The throughput step reads the target config as the running vLLM release loads it, as the launch
and configs steps do (steps/common.py served_target): a dotted `--hf-overrides.KEY 32K` is the number
32768 only from vLLM 0.20.0 (vllm-project/vllm PR #40473, vllm/utils/argparse_utils.py); 0.19.1 keeps
the text. throughput_step.served_configs called served_config without the release (every release
read the number)."""

from __future__ import annotations

from spec_debug.diagnose.steps.throughput_step import served_configs

# Qwen/Qwen3-8B config.json (the fields read here)
QWEN3_8B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "max_position_embeddings": 40960,
            "rope_scaling": None, "rope_theta": 1000000, "num_hidden_layers": 36, "hidden_size": 4096}
# Qwen3's YaRN recipe (Qwen3 README, "Processing Long Texts") in vLLM's dotted --hf-overrides form
YARN = ["vllm", "serve", "Qwen/Qwen3-8B", "--hf-overrides.rope_scaling.rope_type", "yarn",
        "--hf-overrides.rope_scaling.factor", "4.0",
        "--hf-overrides.rope_scaling.original_max_position_embeddings", "32K"]


def _served(engine: dict[str, str]) -> dict:
    facts = {"configs": {"target_config": QWEN3_8B, "draft_config": None}, "launch": {"argv": YARN}, "engine": engine}
    return served_configs(facts)[1]["rope_scaling"]


def test_served_configs_follow_the_vllm_release():
    assert _served({"name": "vllm", "version": "0.19.1"})["original_max_position_embeddings"] == "32K"
    assert _served({"name": "vllm", "version": "0.20.0"})["original_max_position_embeddings"] == 32768
    assert _served({})["original_max_position_embeddings"] == 32768  # release unknown: the newest's rules
