"""A speculators 0.9.0 draft whose export cast float weights to integers (`.to(torch.int32)`,
`.long()` on a norm) or bools, with no quantization scale beside them. vLLM and SGLang copy
such a tensor into their float parameters as stored (model_loader/weight_utils.py
default_weight_loader: param.data.copy_), so the served draft is wrong with no error. Eval
scored the rounded values as stored and said nothing (accuracy 0.02 against 0.69: a
"merely bad" draft); an int32 fc.weight of small values read as "weight matrices that are
all zeros: an incomplete copy". Eval now refuses the draft naming the file, the tensor and its
dtype, as it refuses int8 weights saved without their scale."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

CAST = ("not a float type, and no scale beside it: a float weight cast to integers (or bools) "
        "by an export, every value rounded; vLLM and SGLang copy it into their float "
        "parameters as stored and serve it so")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("integer_weights"), seed=1)


def _recast(world: Path, tmp_path: Path, name: str, cast) -> Path:
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    tensors[name] = cast(tensors[name])
    save_file(tensors, str(draft / "model.safetensors"))
    return draft


@pytest.mark.parametrize(("name", "cast", "kind"), [
    ("layers.0.mlp.down_proj.weight", lambda t: (t * 1000).round().to(torch.int32), "int32"),
    ("fc.weight", lambda t: t.to(torch.int32), "int32"),
    ("norm.weight", lambda t: t.round().long(), "int64"),
    ("fc.weight", lambda t: t > 0, "bool"),
])
def test_a_weight_cast_to_integers_is_refused_by_name(world, tmp_path, name, cast, kind):
    draft = _recast(world, tmp_path, name, cast)
    with pytest.raises(CheckpointError) as raised:
        evaluate_drafter(draft, world / "data", world / "target")
    assert raised.value.message == (f"{draft / 'model.safetensors'}: {name} is stored as "
                                    f"{kind}, {CAST}")
    assert raised.value.hint == ("re-export the draft from the float weights training saved "
                                 "(save_pretrained), or dequantize it to bfloat16")


def test_a_half_precision_weight_is_read_as_saved(world, tmp_path):
    draft = _recast(world, tmp_path, "fc.weight", lambda t: t.half())
    result = evaluate_drafter(draft, world / "data", world / "target")
    assert result["full_accuracy"][0] > 0.5
