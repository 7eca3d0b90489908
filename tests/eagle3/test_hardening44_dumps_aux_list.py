"""A SpecForge-style data_*.ckpt whose aux_hidden_state is the LIST of the three captured
layers' states rather than their concatenation (a dumper that kept them as transformers'
output_hidden_states give them, instead of SpecForge's torch.cat(..., dim=-1)). Every file
was refused, "aux_hidden_state is a list, not a tensor or a list of numbers", so a dump that
holds exactly the states the draft needs scored nothing. Now the list is concatenated in
its order, as SpecForge's writer does, and scores as the concatenated dump; a list of
tensors of different shapes is refused with the shapes named."""

from __future__ import annotations

import json
from pathlib import Path

from safetensors.torch import load_file

from tests.eagle3._world import informative_world, runner, torch

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h44_aux_list", seed=44)


def _specforge_dump(world: Path, out: Path, *, as_list: bool) -> Path:
    """world's hs samples as data_<i>.ckpt: the 3 aux slots under aux_hidden_state (one
    [1, T, 3H] tensor, or a list of three [1, T, H]) and the final slot as hidden_state."""
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"]  # [T, 4, H]
        T = states.shape[0]
        aux = ([states[:, j][None].clone() for j in range(3)] if as_list
               else states[:, :3].reshape(1, T, -1).clone())
        torch.save({"input_ids": tensors["token_ids"], "loss_mask": torch.ones(T, dtype=torch.long),
                    "aux_hidden_state": aux, "hidden_state": states[:, 3][None].clone()},
                   out / f"data_{i}.ckpt")
    return out


def _eval(world: Path, data: Path) -> tuple[int, str]:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    return result.exit_code, result.output


def test_aux_states_saved_as_a_list_score_as_the_concatenated_dump(world, tmp_path):
    code, listed = _eval(world, _specforge_dump(world, tmp_path / "listed", as_list=True))
    assert code == 0, listed
    code, joined = _eval(world, _specforge_dump(world, tmp_path / "joined", as_list=False))
    assert code == 0, joined
    listed, joined = json.loads(listed), json.loads(joined)
    assert listed["samples"] == 3 and listed["skipped_samples"] == 0
    assert listed["full_accuracy"] == joined["full_accuracy"]
    assert listed["expected_accept_length"] == joined["expected_accept_length"]


def test_aux_states_of_different_shapes_are_refused_with_the_shapes(world, tmp_path):
    data = tmp_path / "odd"
    data.mkdir()
    states = load_file(str(world / "data" / "hs_0.safetensors"))["hidden_states"]
    T = states.shape[0]
    torch.save({"input_ids": torch.arange(T), "hidden_state": states[:, 3][None].clone(),
                "aux_hidden_state": [states[:, 0][None].clone(), states[:-1, 1][None].clone(),
                                     states[:, 2][None].clone()]}, data / "data_0.ckpt")
    code, output = _eval(world, data)
    message = " ".join(output.split())
    assert code == 2, output
    assert (f"aux_hidden_state is a list of 3 tensors of different shapes ([1, {T - 1}, 32], "
            f"[1, {T}, 32])") in message, message
