"""The playbooks' host probes on real-world configs (spec_debug/probes/hidden_layout.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.probes import hidden_layout

# sgl-project/SpecForge configs/qwen3-omni-eagle3.json (commit d46f1254), verbatim: no aux ids,
# so the engine feeds its default [2, N//2, N-3] of the target's N layers.
SPECFORGE_QWEN3_OMNI_DRAFT = {
    "architectures": ["LlamaForCausalLMEagle3"], "bos_token_id": 151672, "eos_token_id": 151673,
    "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02,
    "intermediate_size": 6144, "max_position_embeddings": 65536, "model_type": "llama",
    "num_attention_heads": 32, "num_key_value_heads": 4, "num_hidden_layers": 1,
    "pad_token_id": 0, "rms_norm_eps": 1e-06, "tie_word_embeddings": False,
    "torch_dtype": "bfloat16", "transformers_version": "4.28.1", "use_cache": True,
    "vocab_size": 152064, "draft_vocab_size": 32000,
}

# Qwen/Qwen3-Omni-30B-A3B-Instruct config.json, the keys that matter here: the language model
# is the thinker's, under thinker_config.text_config (transformers
# models/qwen3_omni_moe/configuration_qwen3_omni_moe.py), 48 layers.
QWEN3_OMNI_TARGET = {
    "architectures": ["Qwen3OmniMoeForConditionalGeneration"], "model_type": "qwen3_omni_moe",
    "thinker_config": {
        "model_type": "qwen3_omni_moe_thinker",
        "text_config": {"model_type": "qwen3_omni_moe_text", "hidden_size": 2048,
                        "num_hidden_layers": 48, "vocab_size": 152064, "rms_norm_eps": 1e-06,
                        "num_attention_heads": 32, "num_key_value_heads": 4,
                        "tie_word_embeddings": False},
    },
}


def _checkpoint(root: Path, name: str, config: dict) -> Path:
    path = root / name
    path.mkdir()
    (path / "config.json").write_text(json.dumps(config))
    return path


def test_hidden_layout_plans_the_served_layers_of_a_qwen3_omni_target(tmp_path):
    """Before: the probe looked for num_hidden_layers in text_config or the top level only, so
    for Qwen3-Omni it reported num_target_layers None, made no serve plan and the layer
    checks were skipped without a word."""
    draft = _checkpoint(tmp_path, "draft", SPECFORGE_QWEN3_OMNI_DRAFT)
    target = _checkpoint(tmp_path, "target", QWEN3_OMNI_TARGET)
    # vLLM: SGLang's Qwen3-Omni class has no set_eagle3_layers_to_capture (hardening65), so it plans nothing
    out = hidden_layout.run({"draft_model": str(draft), "target_model": str(target),
                             "engine": "vllm"})
    assert out["num_target_layers"] == 48
    assert out["target_architecture"] == "Qwen3OmniMoeForConditionalGeneration"
    assert out["plan"]["layer_ids"] == [2, 24, 45]
    assert out["plan"]["used_default"] is True


def test_hidden_layout_with_a_malformed_text_config_plans_nothing_instead_of_failing(tmp_path):
    draft = _checkpoint(tmp_path, "draft", SPECFORGE_QWEN3_OMNI_DRAFT)
    target = _checkpoint(tmp_path, "target", {"architectures": ["X"], "text_config": "48 layers"})
    out = hidden_layout.run({"draft_model": str(draft), "target_model": str(target),
                             "engine": "sglang"})
    assert out["num_target_layers"] is None and "plan" not in out


def test_a_hidden_states_var_holding_a_file_pattern_names_the_folder(tmp_path):
    """`--var hidden_states=/data/hs/hs_*.safetensors` reaches the drafter probes as written:
    no shell expands a playbook var. Before: "data directory not found", and nothing on why."""
    torch = pytest.importorskip("torch")
    from spec_debug.eagle3.data import DataError, describe_data, write_hs_sample

    dump = tmp_path / "hs"
    dump.mkdir()
    for i in range(2):
        write_hs_sample(dump / f"hs_{i}.safetensors", torch.arange(6),
                        torch.zeros(6, 4, 8, dtype=torch.bfloat16))
    with pytest.raises(DataError) as caught:
        describe_data(f"{dump}/hs_*.safetensors")
    assert caught.value.hint.startswith("a file pattern that no shell expanded (2 match(es))")
    assert f"--data {dump}," in caught.value.hint
    assert describe_data(dump).files == 2  # the folder the hint names is read


def test_a_dump_of_generate_sequences_says_why_its_ids_are_one_longer(tmp_path):
    """A hand-written dumper around transformers' generate() saves `sequences` (the prompt and
    the generated token) beside the prompt's hidden states. Before: "token_ids has 13 entries,
    hidden_states 12" and no word on the cause."""
    torch = pytest.importorskip("torch")
    from transformers import LlamaConfig, LlamaForCausalLM

    from spec_debug.eagle3.data import DataError, read_sample, write_hs_sample

    torch.manual_seed(0)
    target = LlamaForCausalLM(LlamaConfig(
        vocab_size=64, hidden_size=16, intermediate_size=32, num_attention_heads=2,
        num_key_value_heads=1, num_hidden_layers=4)).eval()
    prompt = torch.randint(0, 64, (1, 12))
    with torch.no_grad():
        out = target.generate(prompt, max_new_tokens=1, do_sample=False,
                              output_hidden_states=True, return_dict_in_generate=True,
                              pad_token_id=0)
    prefill = out.hidden_states[0]  # per layer [1, 12, H]: the prompt's states
    states = torch.stack([prefill[i][0] for i in (1, 2, 3, 4)], dim=1)  # [12, 4, H]
    path = tmp_path / "hs_0.safetensors"
    write_hs_sample(path, out.sequences[0], states.to(torch.bfloat16))
    with pytest.raises(DataError) as caught:
        read_sample(path)
    assert "token_ids has 13 entries, hidden_states 12" in caught.value.message
    assert "generate()'s sequences" in caught.value.message
