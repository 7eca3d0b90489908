"""A speculators 0.9.0 draft whose transformer_layer_config.model_type was set by hand to the
target's type ("mistral", "qwen2"), its weights still the Llama layer speculators trained.

Before: the configs step said only SD004 "the draft config.json could not be read as an EAGLE-3
config (... draft decoder model_type 'mistral' is not supported ...)", with no word of what the
engines do or of the fix. speculators builds EAGLE-3 layers for llama and qwen3 only
(models/eagle3/core.py `model_classes[tl_config.model_type]`: KeyError, recorded below) and vLLM
builds Eagle3LlamaForCausalLM whatever the key says (transformers_utils/configs/speculators/
algos.py update_eagle3). Now: SD704, a warning naming the key and the value the weights fit."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

TITLE = "The draft config names a decoder type speculators does not build"


def _retyped(tmp_path, world, model_type):
    shutil.copytree(world / "target", tmp_path / "target")
    shutil.copytree(world / "draft", tmp_path / "draft")
    path = tmp_path / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["model_type"] = model_type
    path.write_text(json.dumps(config, indent=2))
    return tmp_path


@pytest.mark.parametrize("model_type", ["mistral", "qwen2"])
def test_a_decoder_type_speculators_does_not_build_over_llama_weights_is_sd704(tmp_path, world, model_type):
    root = _retyped(tmp_path, world, model_type)
    found = _configs(root, VLLM)
    assert [(f.code, f.severity, f.title) for f in found if f.severity != "info"] == [
        ("SD704", "warning", TITLE)]
    [finding] = [f for f in found if f.code == "SD704"]
    assert finding.evidence == [
        f"transformer_layer_config.model_type is {model_type!r}, a decoder speculators builds no "
        f"EAGLE-3 layer for (only llama, qwen3: loading the draft stops with KeyError {model_type!r}, "
        "and the drafter steps cannot load it either); vLLM builds its Llama EAGLE-3 layer whatever "
        "the key says, and the weights hold a Llama layer (no projection bias, no q_norm/k_norm): "
        "set it to llama"]
    assert finding.facts == {"key": "transformer_layer_config.model_type", "config": model_type,
                             "weights": "llama"}
    # said once: the reader's "could not be read" line for the same key is not beside it
    assert not any("could not be read as an EAGLE-3 config" in f.evidence[0] for f in found)


def test_weights_with_projection_biases_keep_the_readers_line(tmp_path, world):
    """A Qwen2-shaped layer (q/k/v biases) is no mislabelled Llama layer: no fix is offered."""
    import torch
    from safetensors.torch import load_file, save_file

    root = _retyped(tmp_path, world, "qwen2")
    weights = root / "draft" / "model.safetensors"
    tensors = load_file(str(weights))
    for proj in ("q", "k", "v"):
        rows = tensors[f"layers.0.self_attn.{proj}_proj.weight"].shape[0]
        tensors[f"layers.0.self_attn.{proj}_proj.bias"] = torch.zeros(rows)
    save_file(tensors, str(weights), metadata={"format": "pt"})
    found = _configs(root, VLLM)
    assert "SD704" not in [f.code for f in found]
    assert any("draft decoder model_type 'qwen2' is not supported" in f.evidence[0] for f in found)


def test_speculators_refuses_the_retyped_draft(tmp_path, world):
    """The refusal the evidence names, from the installed speculators."""
    from speculators import SpeculatorModel

    root = _retyped(tmp_path, world, "mistral")
    with pytest.raises(KeyError, match="mistral"):
        SpeculatorModel.from_pretrained(str(root / "draft"))


def test_other_speculators_types_are_not_told_of_the_llama_layer():
    """vLLM builds another class for them (update_mtp: Qwen3NextMTP for qwen3_next)."""
    from spec_debug.diagnose.checks.draft_config import check_decoder_model_type

    shapes = {"layers.0.self_attn.q_proj.weight": [32, 64]}
    config = {"speculators_model_type": "eagle3", "transformer_layer_config": {"model_type": "mistral"}}
    assert [f.code for f in check_decoder_model_type(config, shapes)] == ["SD704"]
    config["speculators_model_type"] = "mtp"
    assert check_decoder_model_type(config, shapes) == []
