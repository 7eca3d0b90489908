"""A draft saved by speculators 0.9.0 whose fc and layer projections were exported in float8
without their weight_scale tensors, under a quantization_config (quant_method fp8): the eval
scored it exactly as the same cast draft without the config (the weights read as stored, a
scale of 1) and said nothing, where the cast draft gets a note. The engines build the layers
quantized from that config: vLLM's and SGLang's Fp8LinearMethod.create_weights fill each
weight_scale with float32's lowest value and the load keeps it when the checkpoint has none
(vLLM's check for unloaded weights runs only for unquantized models: model_loader/
default_loader.py; SGLang's llama_eagle3.py load_weights checks nothing), so the served draft
overflows. The eval now says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

CAST = ("fc.weight", "layers.0.mlp.down_proj.weight", "layers.0.mlp.gate_proj.weight",
        "layers.0.mlp.up_proj.weight", "layers.0.self_attn.k_proj.weight")
NOTE = ("fc.weight, layers.0.mlp.down_proj.weight, layers.0.mlp.gate_proj.weight, "
        "layers.0.mlp.up_proj.weight ... stored in float8 with no weight_scale beside them, "
        "under config.json's quantization_config (quant_method fp8): scored here as stored (a "
        "scale of 1), but vLLM and SGLang build the draft's decoder-layer projections quantized "
        "from that config and keep each missing weight_scale at its initial value, float32's "
        "lowest (-3.4e38), without an error: the served draft's outputs overflow and nearly "
        "nothing is accepted; export the weight_scale tensors with the weights, or save the "
        "weights in the training dtype without quantization_config")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("fp8_no_scales"), seed=1)


def _fp8_draft(world: Path, out: Path, quantization_config=None) -> Path:
    shutil.copytree(world / "draft", out)
    tensors = load_file(str(out / "model.safetensors"))
    for name in CAST:
        tensors[name] = tensors[name].to(torch.float8_e4m3fn)
    save_file(tensors, str(out / "model.safetensors"), metadata={"format": "pt"})
    if quantization_config is not None:
        config = json.loads((out / "config.json").read_text())
        config["quantization_config"] = quantization_config
        (out / "config.json").write_text(json.dumps(config, indent=2))
    return out


def _fp8_notes(result):
    return [note for note in result["notes"] if "stored in float8" in note]


def test_fp8_weights_without_scales_under_a_quantization_config_are_named(world, tmp_path):
    quantized = evaluate_drafter(
        _fp8_draft(world, tmp_path / "quantized",
                   {"quant_method": "fp8", "activation_scheme": "dynamic"}),
        world / "data", world / "target")
    cast = evaluate_drafter(_fp8_draft(world, tmp_path / "cast"), world / "data", world / "target")
    # read as stored either way: the scale of 1 the note names
    assert quantized["full_accuracy"] == cast["full_accuracy"]
    assert _fp8_notes(quantized) == [NOTE]
    assert "no scale and no quantization_config" in _fp8_notes(cast)[0]


def test_an_empty_quantization_config_is_no_quantization(world, tmp_path):
    result = evaluate_drafter(_fp8_draft(world, tmp_path / "empty", {}), world / "data",
                              world / "target")
    [note] = _fp8_notes(result)
    assert "no scale and no quantization_config" in note
