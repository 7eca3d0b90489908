"""A speculators draft config whose transformer_layer_config has no model_type.

speculators 0.9.0 builds a Qwen3Config for such a dict (models/eagle3/config.py), so the
draft it loads has q_norm/k_norm; vLLM serves it as Eagle3LlamaForCausalLM. spec-debug
evaluated it as Llama and said nothing of the split. Now eval notes it and names the key
to write: "llama" when the weights have no q_norm/k_norm, "qwen3" when they do.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import (AUX, DV, H, V, save_perturbed_draft,  # noqa: E402
                                            save_verifier_and_draft)

NOTE = "the draft config's transformer_layer_config has no model_type"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("layer_model_type")
    save_verifier_and_draft(root)
    return root


def _without_model_type(draft_dir):
    path = draft_dir / "config.json"
    config = json.loads(path.read_text())
    del config["transformer_layer_config"]["model_type"]
    path.write_text(json.dumps(config))


def _notes(loaded):
    return [note for note in loaded.notes if note.startswith(NOTE)]


def test_llama_draft_without_model_type_is_noted_with_the_key_to_write(saved, tmp_path):
    from speculators.models.eagle3 import Eagle3SpeculatorConfig
    from transformers import Qwen3Config

    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    _without_model_type(draft)
    # what the note says speculators does with it
    assert isinstance(Eagle3SpeculatorConfig.from_pretrained(str(draft)).transformer_layer_config,
                      Qwen3Config)
    loaded = load_draft(draft, saved / "target")
    assert loaded.checkpoint.config.model_type == "llama"
    [note] = _notes(loaded)
    assert "q_norm/k_norm are not in the weights and stay at their initial values" in note
    assert note.endswith('write "model_type": "llama" in transformer_layer_config (what '
                         "speculators saves from a LlamaConfig)")


def test_qwen3_weights_without_model_type_are_told_to_write_qwen3(saved, tmp_path):
    from transformers import Qwen3Config

    layer = Qwen3Config(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
                        num_key_value_heads=2, head_dim=8, num_hidden_layers=1,
                        max_position_embeddings=128)
    draft = tmp_path / "draft"
    save_perturbed_draft(draft, saved / "target", layer, aux=AUX, draft_vocab=DV, vocab=V,
                         seed_name="qwen3-no-model-type")
    _without_model_type(draft)
    loaded = load_draft(draft, saved / "target")
    [note] = _notes(loaded)
    assert "which the weights' q_norm/k_norm fit: vLLM drops them" in note
    assert note.endswith('write "model_type": "qwen3" in transformer_layer_config if the draft '
                         "was trained as one")


def test_a_layer_config_with_model_type_has_no_note(saved):
    assert _notes(load_draft(saved / "draft", saved / "target")) == []
