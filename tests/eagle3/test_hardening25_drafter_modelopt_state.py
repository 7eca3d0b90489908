"""A draft folder whose only torch file is ModelOpt's modelopt_state.pth.

NVIDIA ModelOpt's HF checkpointing (modelopt/torch/opt/plugins/huggingface.py) saves
modelopt_state.pth, the modes the model was converted with ({"modelopt_state_dict": [(mode,
{config, metadata})], "modelopt_version"}), beside save_pretrained's weights; mto.save(model,
"modelopt_state.pth") saves {"modelopt_state", "model_state_dict"} (modelopt/torch/opt/
conversion.py). A copy without the weights was told "only torch.save file(s) under other names:
modelopt_state.pth" and to convert it to model.safetensors: the first holds no weights. It is
now named as ModelOpt's state, weights missing; the second's weights are named."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

EAGLE_MODE = [("eagle", {"config": {"eagle_num_layers": 1, "eagle_architecture_config": {}},
                         "metadata": {}})]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h25_modelopt_state")
    save_verifier_and_draft(root)
    return root


def _folder(world: Path, out: Path, state: dict) -> str:
    out.mkdir()
    (out / "config.json").write_text((world / "draft" / "config.json").read_text())
    torch.save(state, out / "modelopt_state.pth")
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(out)])
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    return " ".join(result.output.split())


def test_modelopts_hf_checkpoint_state_is_not_weights(world, tmp_path):
    output = _folder(world, tmp_path / "ckpt", {"modelopt_state_dict": EAGLE_MODE,
                                                 "modelopt_version": "0.37.0"})
    assert "only ModelOpt's modelopt_state.pth" in output
    assert "the weights were not saved or not copied here" in output
    assert "save it as model.safetensors" not in output and "under other names" not in output


def test_mto_saves_weights_in_it_are_named(world, tmp_path):
    weights = load_file(str(world / "draft" / "model.safetensors"))
    output = _folder(world, tmp_path / "ckpt", {
        "modelopt_state": {"modelopt_state_dict": EAGLE_MODE, "modelopt_version": "0.37.0"},
        "model_state_dict": weights})
    assert "modelopt_state.pth holds an EAGLE-3 draft's weights under ['model_state_dict']" in output
    assert ("save_file(torch.load('modelopt_state.pth', weights_only=False)['model_state_dict'], "
            "'model.safetensors')") in output


def test_a_draft_inside_the_base_models_state_dict_is_told_apart(world, tmp_path):
    """ModelOpt's EAGLE model: the base model's weights and the draft as eagle_module.*."""
    draft = load_file(str(world / "draft" / "model.safetensors"))
    target = load_file(str(world / "target" / "model.safetensors"))
    weights = {**target, **{f"eagle_module.{name}": tensor for name, tensor in draft.items()}}
    output = _folder(world, tmp_path / "ckpt", {"modelopt_state": {}, "model_state_dict": weights})
    assert f"{len(draft)} tensors named eagle_module.*, beside {len(target)} of the model" in output
    assert "if k.startswith('eagle_module.')" in output
