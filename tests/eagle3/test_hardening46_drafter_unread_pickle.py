"""A speculators draft folder holding both model.safetensors (speculators' save) and a
pytorch_model.bin of other weights (a later torch.save(state_dict) re-export over the same
folder). vLLM and SGLang load the first weight pattern that matches ("*.safetensors" before
"*.bin", model_loader/default_loader.py _prepare_weights) and transformers' from_pretrained
tries safetensors first, so the pickle is never served; eval read the safetensors, as they
do, but said nothing, so a user who fixed the draft in the pickle was scored, and served, the
old weights without a word. Eval now names the pickle and a tensor that differs, and says
nothing when both hold the same save (Hub repos often ship both formats)."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("unread_pickle"), seed=1)


def _with_pickle(world: Path, tmp_path: Path, shift: float) -> Path:
    import shutil

    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    torch.save({name: tensor + shift if tensor.is_floating_point() else tensor
                for name, tensor in tensors.items()}, draft / "pytorch_model.bin")
    return draft


def _pickle_notes(result):
    return [note for note in result["notes"] if "pytorch_model.bin" in note]


def test_a_pickle_of_other_weights_beside_the_safetensors_is_named(world, tmp_path):
    draft = _with_pickle(world, tmp_path, 1.0)
    result = evaluate_drafter(draft, world / "data", world / "target")
    alone = evaluate_drafter(world / "draft", world / "data", world / "target")
    assert result["full_accuracy"] == alone["full_accuracy"]  # the safetensors were scored
    assert _pickle_notes(result) == [
        f"{draft / 'pytorch_model.bin'} holds other weights than the safetensors beside it "
        "(layers.0.hidden_norm.weight differs): vLLM, SGLang and transformers (so speculators) "
        "load only the safetensors when both are there, which were read here; the pickle is "
        "never served: delete whichever of the two is the older save of this draft"]


def test_a_pickle_of_the_same_save_is_not_said(world, tmp_path):
    result = evaluate_drafter(_with_pickle(world, tmp_path, 0.0), world / "data", world / "target")
    assert _pickle_notes(result) == []
