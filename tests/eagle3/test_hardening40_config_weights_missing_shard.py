"""A sharded speculators draft copied or downloaded without one of the shards its
model.safetensors.index.json names (here the one holding layers.1): the model_configs probe
lists the tensors of the shards that are there, and SD704 read the missing layer as the
config's fault: "num_hidden_layers is 2, the weights hold 1 decoder layer: set it to 1", a
fix that would serve a one-layer draft. The configs step now says the shard is missing (SD710)
and that the shapes were not compared. The draft is
saved by speculators 0.9.0 and then sharded."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.speculators_world import AUX, DV, H, V, save_perturbed_draft  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

SHARDS = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")


@pytest.fixture
def sharded(tmp_path, world):
    """A two-layer draft over the world's target, its layers.1 in the second shard."""
    from safetensors.torch import load_file, save_file
    from transformers import LlamaConfig

    shutil.copytree(world / "target", tmp_path / "target")
    kw = dict(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
              num_key_value_heads=2, head_dim=8, max_position_embeddings=128)
    save_perturbed_draft(tmp_path / "draft", tmp_path / "target", LlamaConfig(num_hidden_layers=2, **kw),
                         aux=AUX, draft_vocab=DV, vocab=V, seed_name="missing-shard")
    whole = tmp_path / "draft" / "model.safetensors"
    tensors = load_file(str(whole))
    whole.unlink()
    weight_map = {}
    for file, part in zip(SHARDS, (lambda n: not n.startswith("layers.1."), lambda n: n.startswith("layers.1."))):
        save_file({n: t for n, t in tensors.items() if part(n)}, str(tmp_path / "draft" / file),
                  metadata={"format": "pt"})
        weight_map.update({n: file for n in tensors if part(n)})
    (tmp_path / "draft" / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map}))
    return tmp_path


def test_a_missing_shard_is_not_read_as_a_config_of_fewer_layers(sharded):
    assert [f.code for f in _configs(sharded, VLLM) if f.code != "SD004"] == []
    (sharded / "draft" / SHARDS[1]).unlink()
    found = _configs(sharded, VLLM)
    # no SD704 for the lost layer; the missing shard is SD710 (vLLM does not start with it:
    # tests/diagnose/test_hardening72_configs_missing_shard.py), which says no shapes were compared
    assert [f.code for f in found if f.severity != "info"] == ["SD710"]
    [line] = [f for f in found if f.code == "SD710"]
    assert SHARDS[1] in line.evidence[0]
    assert line.evidence[1] == "the draft config's shape keys and norm flags were not compared with its weights"


def test_with_every_shard_an_edited_config_is_still_sd704(sharded):
    path = sharded / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["num_hidden_layers"] = 3
    path.write_text(json.dumps(config))
    [finding] = [f for f in _configs(sharded, VLLM) if f.code == "SD704"]
    assert "the weights hold 2 decoder layers (layers.0, layers.1)" in finding.evidence[0]
