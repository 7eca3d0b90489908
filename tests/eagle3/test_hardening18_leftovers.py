"""Tencent/AngelSlim EAGLE-3 drafts: the aux layers they were trained on, read from the
config.json AngelSlim's trainer saves, against the layers SGLang and vLLM serve them.

AngelSlim reads its own key `aux_hidden_states_layer_ids` from the draft config
(angelslim/compressor/speculative/train/trainer/online_eagle3_trainer.py) and captures
`hidden_states[id + 1]` (train/models/target/target_model_wrapper.py
`_extract_auxiliary_hidden_states`): output-of ids. The draft config is a transformers
LlamaConfig built from the JSON (train/models/draft/draft_model_factory.py
DraftModelConfig.from_file; llama_eagle3.py `config_class = LlamaConfig`), so the saved
config.json carries the key as the user set it. No engine reads that key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers
from spec_debug.eagle3.engines import default_layer_ids, trained_layer_ids

# https://github.com/Tencent/AngelSlim/blob/main/angelslim/compressor/speculative/train/configs/qwen3-8b-eagle3.json
# (the draft config AngelSlim ships for Qwen3-8B, a 36-layer target), as published.
ANGELSLIM_QWEN3_8B = {
    "architectures": ["Eagle3LlamaForCausalLM"], "model_type": "llama",
    "target_model_type": "qwen3", "torch_dtype": "bfloat16", "attention_bias": False,
    "attention_dropout": 0.0, "bos_token_id": 151643, "eos_token_id": 151645, "head_dim": 128,
    "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02,
    "intermediate_size": 12288, "max_position_embeddings": 40960, "max_window_layers": 36,
    "num_attention_heads": 32, "num_hidden_layers": 1, "num_key_value_heads": 8,
    "rms_norm_eps": 1e-06, "rope_scaling": None, "rope_theta": 1000000, "sliding_window": None,
    "tie_word_embeddings": False, "transformers_version": "4.51.0", "use_cache": True,
    "use_sliding_window": False, "vocab_size": 151936, "draft_vocab_size": 32000,
}
QWEN3_8B_LAYERS = 36  # Qwen/Qwen3-8B config.json num_hidden_layers


def _saved_by_angelslim(tmp_path: Path, **extra) -> dict:
    """The config.json AngelSlim's trainer writes: LlamaConfig(**its json) then
    save_pretrained, as DraftModelConfig.from_file and the HF Trainer do."""
    transformers = pytest.importorskip("transformers")
    config = transformers.LlamaConfig(**{**ANGELSLIM_QWEN3_8B, **extra})
    config.save_pretrained(tmp_path)
    return json.loads((tmp_path / "config.json").read_text())


def test_angelslim_draft_on_its_own_aux_layers_is_read_as_trained(tmp_path):
    """A user trains on later layers, output-of [2, 18, 34] under AngelSlim's key. Before:
    the key was not read, trained = the default [2, 18, 33], so no SD201 although both engines
    serve the default. Now trained = input-to [3, 19, 35] and SD201 names the key to set."""
    raw = _saved_by_angelslim(tmp_path, aux_hidden_states_layer_ids=[2, 18, 34])
    assert raw["aux_hidden_states_layer_ids"] == [2, 18, 34]  # the trainer's key survives the save
    assert trained_layer_ids(raw, QWEN3_8B_LAYERS) == [3, 19, 35]

    for engine, version in (("sglang", "0.5.23"), ("vllm", "0.33.0")):
        analysis = analyse_layers(engine, version, raw, QWEN3_8B_LAYERS,
                                  target_architecture="Qwen3ForCausalLM")
        assert analysis.served == default_layer_ids(QWEN3_8B_LAYERS) == [2, 18, 33]
        assert analysis.trained == [3, 19, 35] and analysis.mismatch
        findings = check_aux_layers(analysis)
        assert [f.code for f in findings] == ["SD201"], findings
        assert analysis.fix is not None and "eagle_aux_hidden_state_layer_ids" in analysis.fix.key


def test_angelslim_default_layers_match_what_engines_serve(tmp_path):
    """AngelSlim's default ([1, N//2 - 1, N - 4] output-of since v0.3.0), written out under its
    key, is the engines' default [2, N//2, N-3]: no finding."""
    n = QWEN3_8B_LAYERS
    raw = _saved_by_angelslim(tmp_path, aux_hidden_states_layer_ids=[1, n // 2 - 1, n - 4])
    assert trained_layer_ids(raw, n) == default_layer_ids(n)
    analysis = analyse_layers("vllm", "0.33.0", raw, n, target_architecture="Qwen3ForCausalLM")
    assert not analysis.mismatch and check_aux_layers(analysis) == []


def test_angelslim_key_wins_over_the_engine_key_written_beside_it(tmp_path):
    """A config given the SGLang key for serving as well: what was trained is still AngelSlim's
    key + 1, and the nested key only says what SGLang serves (here the same layers)."""
    raw = _saved_by_angelslim(tmp_path, aux_hidden_states_layer_ids=[2, 18, 34],
                              eagle_config={"eagle_aux_hidden_state_layer_ids": [2, 18, 34]})
    assert trained_layer_ids(raw, QWEN3_8B_LAYERS) == [3, 19, 35]
    analysis = analyse_layers("sglang", "0.5.23", raw, QWEN3_8B_LAYERS,
                              target_architecture="Qwen3ForCausalLM")
    assert analysis.served == [3, 19, 35] and not analysis.mismatch  # SGLang adds 1 on Qwen3
