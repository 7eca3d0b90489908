"""A dump whose loss_mask holds the labels (input ids with -100 at the prompt positions, the
HF convention) or the token ids instead of a 0/1 mask. The readers cast it to bool, so every
nonzero entry, -100 included, was scored: the prompt the mask was to leave out counted and
eval printed a different accuracy without a word. Now such a file is skipped, named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app
from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h42_labels_as_mask", seed=3)


def _samples(world: Path):
    from safetensors.torch import load_file

    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        yield i, tensors["token_ids"], tensors["hidden_states"]


def _labels(ids):
    return torch.where(torch.arange(ids.shape[0]) < 5, torch.full_like(ids, -100), ids)


def _eval(world: Path, data: Path) -> tuple[int, str]:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "1", "--json"])
    return result.exit_code, result.output


def test_labels_saved_as_the_loss_mask_of_hs_files_are_refused(world):
    out = world / "hs_labels"
    out.mkdir()
    for i, ids, states in _samples(world):
        write_hs_sample(out / f"hs_{i}.safetensors", ids, states, loss_mask=_labels(ids))
    code, output = _eval(world, out)
    assert code == 2, output
    assert "loss_mask holds values outside 0 and 1" in output and "-100" in output, output
    assert "Traceback" not in output


def test_token_ids_saved_as_the_loss_mask_of_specforge_files_are_refused(world):
    out = world / "sf_ids_mask"
    out.mkdir()
    for i, ids, states in _samples(world):
        T = ids.shape[0]
        torch.save({"input_ids": ids, "loss_mask": ids.clone(),
                    "aux_hidden_state": states[:, :-1].reshape(1, T, -1).clone(),
                    "hidden_state": states[:, -1][None].clone()}, out / f"data_{i}.ckpt")
    code, output = _eval(world, out)
    assert code == 2, output
    assert "loss_mask holds values outside 0 and 1" in output, output


def test_a_0_1_mask_of_any_dtype_is_read(world):
    out = world / "hs_masks"
    out.mkdir()
    for i, ids, states in _samples(world):
        mask = (torch.arange(ids.shape[0]) >= 5)
        mask = (mask, mask.long(), mask.float())[i]
        write_hs_sample(out / f"hs_{i}.safetensors", ids, states, loss_mask=mask)
    code, output = _eval(world, out)
    assert code == 0, output
    result = json.loads(output)
    assert result["samples"] == 3 and result["skipped_samples"] == 0, result
