"""Leftovers of the drafter hardening.

1. Tencent/AngelSlim EAGLE-3 drafts: the aux layers they were trained on, read from the
config.json AngelSlim's trainer saves, against the layers SGLang and vLLM serve them.

AngelSlim reads its own key `aux_hidden_states_layer_ids` from the draft config
(angelslim/compressor/speculative/train/trainer/online_eagle3_trainer.py) and captures
`hidden_states[id + 1]` (train/models/target/target_model_wrapper.py
`_extract_auxiliary_hidden_states`): output-of ids. The draft config is a transformers
LlamaConfig built from the JSON (train/models/draft/draft_model_factory.py
DraftModelConfig.from_file; llama_eagle3.py `config_class = LlamaConfig`), so the saved
config.json carries the key as the user set it. No engine reads that key.

2. `drafter layout` on a draft whose layer a converter saved freshly initialised (speculators'
Eagle3Converter without its `midlayer.` -> `layers.0.` remap, vllm-project/speculators#1114):
a random layer scores every layout by chance, so no layout verdict is given.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.diagnose.checks.layers import analyse_layers, check_aux_layers
from spec_debug.eagle3.commands import drafter_app
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
        # the evidence says where the trained layers come from (it said "trainer default")
        assert analysis.trained_source == "draft config (AngelSlim aux_hidden_states_layer_ids, +1)"


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


# --------------------------------------------------------------------------------------------
# 2. drafter layout on a draft saved with its layer freshly initialised
# --------------------------------------------------------------------------------------------
runner = CliRunner()
NO_VERDICT = "no layout can be judged with this draft"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/ and data/ from the shared world; trained/: a draft over that verifier with every
    norm away from 1.0; converted/: trained/ as speculators' converter wrote it when the
    `midlayer.` -> `layers.0.` remap was lost (#358): a fresh Eagle3DraftModel given the
    EAGLE-named weights with load_state_dict(strict=False), then save_pretrained."""
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import LlamaConfig

    from tests.eagle3.speculators_world import (AUX, DV, V, save_informative_world,
                                                save_perturbed_draft)
    # the converter as it ran without the remap, shared with drafter eval's test of its note
    from tests.eagle3.test_hardening18_checkpoints import _converted_without_remap

    root = save_informative_world(tmp_path_factory.mktemp("leftovers_layout"), seed=181)
    layer = LlamaConfig(num_hidden_layers=1, vocab_size=V, hidden_size=32, intermediate_size=64,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                        max_position_embeddings=128)
    save_perturbed_draft(root / "trained", root / "target", layer, aux=AUX, draft_vocab=DV,
                         vocab=V, seed_name="leftovers")
    _converted_without_remap(root, root / "converted")
    return root


def _layout(draft: Path, world: Path) -> dict:
    result = runner.invoke(drafter_app, ["layout", "--model", str(draft), "--data",
                                         str(world / "data"), "--target", str(world / "target"),
                                         "--json"])
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_layout_holds_its_verdict_back_on_a_draft_whose_layer_is_untrained(world):
    """Before: the converted draft's random layer ranked some layout first by chance and the
    verdict said the draft "was trained on a different layout" (or "matches this dump's
    layout"), sending the user to the aux ids or the engine. Now the verdict says the layer is
    untrained and that no layout can be judged, next to eval's note on the initial norms."""
    out = _layout(world / "converted", world)
    assert any("RMSNorm weights at their initial value" in n for n in out["notes"]), out["notes"]
    verdict = out["verdict"]
    assert verdict.startswith(NO_VERDICT) and "untrained" in verdict, verdict
    assert "different layout" not in verdict and "matches this dump" not in verdict
    assert "convert or export the draft again" in verdict
    assert out["ranked"] and out["best"] == out["ranked"][0]["layout"]  # the scores stay shown
    assert out["untrained_draft"] is True  # for --json readers, without matching the text


def test_layout_still_judges_a_draft_saved_whole(world):
    """The same draft with its layer loaded, and the shared world's draft saved before training
    (every norm 1.0, no partial load): a layout verdict as before."""
    for draft in (world / "trained", world / "draft"):
        out = _layout(draft, world)
        assert not any("RMSNorm weights at their initial value" in n for n in out["notes"])
        assert NO_VERDICT not in out["verdict"] and out["untrained_draft"] is False, out["verdict"]
