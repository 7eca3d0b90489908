"""`--hf-overrides.KEY 32K` read as the running vLLM release reads it.

vLLM reads a dotted value that is not JSON as human_readable_int (`32K` = 32768) only from 0.20.0
(vllm-project/vllm PR #40473, vllm/utils/argparse_utils.py); 0.19.1 and older keep the text. The
launch audit's dotted speculative keys already followed the release (_vllm_dotted_texts_kept), but
served_config (the target config the engine loads) read `32K` as 32768 on every release.
"""

from __future__ import annotations

from spec_debug.diagnose.steps.common import served_config, served_target

# Qwen/Qwen3-8B config.json (the fields read here)
QWEN3_8B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "max_position_embeddings": 40960,
            "rope_scaling": None, "rope_theta": 1000000, "num_hidden_layers": 36, "hidden_size": 4096}
# Qwen3's YaRN recipe (Qwen3 README, "Processing Long Texts": rope_type yarn, factor 4.0,
# original_max_position_embeddings 32768) in vLLM's dotted --hf-overrides form
YARN = ["vllm", "serve", "Qwen/Qwen3-8B", "--hf-overrides.rope_scaling.rope_type", "yarn",
        "--hf-overrides.rope_scaling.factor", "4.0",
        "--hf-overrides.rope_scaling.original_max_position_embeddings", "32K", "--max-model-len", "128K"]


def test_a_release_before_0_20_keeps_the_text():
    assert served_config(QWEN3_8B, YARN, "0.19.1")["rope_scaling"] == {
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": "32K"}


def test_0_20_and_an_unknown_release_read_the_number():
    for version in ("0.20.0", "0.20.1rc1", None, "latest"):
        assert served_config(QWEN3_8B, YARN, version)["rope_scaling"]["original_max_position_embeddings"] == 32768


def test_the_checks_served_target_follows_the_engine_fact():
    facts = {"launch": {"argv": YARN}, "engine": {"name": "vllm", "version": "0.19.1"}}
    assert served_target(QWEN3_8B, facts)["rope_scaling"]["original_max_position_embeddings"] == "32K"
    # an SGLang fact's version is no vLLM release
    facts["engine"] = {"name": "sglang", "version": "0.5.4"}
    assert served_target(QWEN3_8B, facts)["rope_scaling"]["original_max_position_embeddings"] == 32768
