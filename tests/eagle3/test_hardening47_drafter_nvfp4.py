"""A speculators 0.9.0 draft exported as NVFP4, laid out as NVIDIA ModelOpt writes it: each
decoder Linear keeps the name `weight`, now uint8 with two 4-bit floats per byte
([out, in/2]), beside `weight_scale` (fp8, one per 16 values), `weight_scale_2` and
`input_scale` (vLLM quantization/modelopt.py ModelOptNvFp4LinearMethod.create_weights). Eval
said "layers.0.mlp.down_proj.weight has shape (32, 32), the config implies (32, 64) ... fix
the config", sending the user after a config that is right. It now names the format, as it
does GPTQ/AWQ and compressed-tensors packed weights."""

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

LINEARS = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
           "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("nvfp4"), seed=1)


def _modelopt_nvfp4(tensors: dict) -> None:
    generator = torch.Generator().manual_seed(0)
    for linear in LINEARS:
        name = f"layers.0.{linear}.weight"
        out, inp = tensors[name].shape
        tensors[name] = torch.randint(0, 256, (out, inp // 2), generator=generator,
                                      dtype=torch.uint8)
        tensors[f"layers.0.{linear}.weight_scale"] = torch.ones(out, inp // 16).to(
            torch.float8_e4m3fn)
        tensors[f"layers.0.{linear}.weight_scale_2"] = torch.tensor(0.01)
        tensors[f"layers.0.{linear}.input_scale"] = torch.tensor(0.02)


def test_a_modelopt_nvfp4_draft_is_named_as_such(world, tmp_path):
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    _modelopt_nvfp4(tensors)
    save_file(tensors, str(draft / "model.safetensors"))
    with pytest.raises(CheckpointError) as raised:
        evaluate_drafter(draft, world / "data", world / "target")
    assert raised.value.message == (
        f"{draft}: weights quantized as ModelOpt NVFP4 (4-bit float) "
        "(layers.0.mlp.down_proj.weight_scale_2, layers.0.mlp.gate_proj.weight_scale_2, "
        "layers.0.mlp.up_proj.weight_scale_2 ...): this format is not supported; the drafter "
        "reads float weights, and FP8 or int8 ones with their scales")
