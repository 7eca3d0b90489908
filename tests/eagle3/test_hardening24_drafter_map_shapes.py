"""A draft whose d2t / t2d were saved with an extra dimension ([1, N] or [N, 1], as a
hand-written exporter's `torch.tensor([offsets])` writes them).

speculators 0.9.0 refuses to load such a draft (Eagle3DraftModel.from_pretrained: size
mismatch against its [DV] / [V] buffers) and vLLM's default_weight_loader asserts equal
sizes for d2t; the drafter compared the entries and said nothing, so a draft no engine
loads passed. It is now named (SD302 d2t_length / SD303 t2d_length) with the reshape fix,
and the forward is unchanged. The draft and states are speculators' own (speculators_world)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.eagle3._world import eval_json, informative_world  # skips without torch/speculators
from safetensors.torch import load_file, save_file  # noqa: E402 (after the skip: it needs torch)


world = informative_world("h24_map_shapes", seed=5)


def _reshaped(world: Path, out: Path, name: str, shape: str) -> Path:
    shutil.copytree(world / "draft", out)
    tensors = load_file(str(out / "model.safetensors"))
    tensors[name] = tensors[name][None] if shape == "row" else tensors[name][:, None]
    save_file({k: v.contiguous() for k, v in tensors.items()}, str(out / "model.safetensors"))
    return out


@pytest.mark.parametrize("name,shape,code", [("d2t", "row", "SD302"), ("d2t", "column", "SD302"),
                                             ("t2d", "row", "SD303")])
def test_a_map_with_an_extra_dimension_is_named(world, tmp_path, name, shape, code):
    from speculators.models.eagle3 import Eagle3DraftModel

    model = _reshaped(world, tmp_path / f"{name}_{shape}", name, shape)
    with pytest.raises(RuntimeError, match="mismatch"):  # the reference refuses to load it
        Eagle3DraftModel.from_pretrained(str(model))
    plain, odd = eval_json(world, world / "draft"), eval_json(world, model)
    assert odd["counts"] == plain["counts"]  # entries compared: the forward is unchanged
    issues = [i for i in odd["vocab_issues"] if f"{name} has shape" in i["message"]]
    assert len(issues) == 1 and issues[0]["code"] == code
    assert issues[0]["kind"] == f"{name}_length"
    assert f"save {name}.reshape(-1)" in issues[0]["message"]
    assert not [i for i in plain["vocab_issues"] if "has shape" in i["message"]]
