"""A dump whose hidden states hold NaN or Inf rows in bfloat16 (a target run in float16 that
overflowed, its states cast for saving; speculators' own generation refuses such files) was
refused by `drafter eval` and `drafter layout` with "no usable samples (...; first:
hs_0.safetensors: NaN or Inf in the hidden_states (slot 0, 3 of 14 positions, first at 3))"
and no hint: the user was told nothing about the cause or what to do. The refusal now carries
the fix (a float16 dump keeps its own, to save in bfloat16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import drafter_error, informative_world, torch

world = informative_world("h71_non_finite_fix", seed=71)

FIX = ("hint: the target's forward pass gave these values (a target run in float16 overflows "
       "on large activations: run it in bfloat16); speculators' data generation refuses such "
       "files (data_generation/offline.py check_hidden_states): drop the sample or dump it "
       "again")


def _damaged(world: Path, out: Path, dtype, value: float) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"].float()
        states[3:6] = value
        tensors["hidden_states"] = states.to(dtype)
        save_file(tensors, str(out / f"hs_{i}.safetensors"))
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_non_finite_bfloat16_states_are_refused_with_the_fix(world, tmp_path, command, value):
    data = _damaged(world, tmp_path / "bf16", torch.bfloat16, value)
    message = drafter_error(world, data, command)
    assert ("hs_0.safetensors: NaN or Inf in the hidden_states (slot 0, 3 of 14 positions, "
            "first at 3))") in message, message
    assert FIX in message, message


def test_a_float16_overflow_keeps_its_own_fix(world, tmp_path):
    data = _damaged(world, tmp_path / "fp16", torch.float16, float("inf"))
    message = drafter_error(world, data)
    assert "float16 holds at most 65504, so large activations overflow" in message, message
    assert "hint: dump the hidden states again in bfloat16 (or float32)" in message, message
    assert FIX not in message, message


def test_a_specforge_file_gets_the_fix_too(world, tmp_path):
    tensors = load_file(str(world / "data" / "hs_0.safetensors"))
    ids, states = tensors["token_ids"], tensors["hidden_states"]
    aux = states[:, :-1].reshape(1, ids.shape[0], -1).clone()
    aux[0, 2] = float("nan")
    data = tmp_path / "specforge"
    data.mkdir()
    torch.save({"input_ids": ids, "loss_mask": torch.ones_like(ids), "aux_hidden_state": aux,
                "hidden_state": states[:, -1][None].clone()}, data / "data_0.ckpt")
    message = drafter_error(world, data)
    assert "data_0.ckpt: NaN or Inf in the aux_hidden_state (slot 0, 1 of 14 positions" in message
    assert FIX in message, message
