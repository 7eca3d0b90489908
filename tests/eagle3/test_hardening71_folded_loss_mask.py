"""A loss_mask of the right number of entries but of a shape that is not one entry per
position ([2, T/2]: two rows of a batch, or a mask folded in two) was flattened in row order
and scored positions it was not made for, with no word, in speculators' hs files and in v1
data_*.pt files alike. It is now refused naming its shape; [T], [1, T] and [T, 1] are read
as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import drafter_error, drafter_json, informative_world, torch

world = informative_world("h71_folded_loss_mask", seed=71)


def _mask(T: int) -> torch.Tensor:
    """A prompt / answer mask: the first third unscored."""
    mask = torch.ones(T, dtype=torch.long)
    mask[: T // 3] = 0
    return mask


def _rows(T: int) -> int:
    return next(k for k in range(2, T + 1) if T % k == 0)


def _hs_dump(world: Path, out: Path, shape) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        T = int(tensors["token_ids"].shape[0])
        tensors["loss_mask"] = _mask(T).reshape(shape(T)).contiguous()
        save_file(tensors, str(out / f"hs_{i}.safetensors"))
    return out


def _v1_dump(world: Path, out: Path, shape) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"]
        T = int(states.shape[0])
        torch.save({"input_ids": tensors["token_ids"],
                    "loss_mask": _mask(T).reshape(shape(T)),
                    "hidden_states": [states[:, j].clone() for j in range(states.shape[1])]},
                   out / f"data_{i}.pt")
    return out


FOLDED = ("loss_mask has shape [2, 7], 2 rows for the 14 positions of the sample, not one "
          "entry per position ([14] or [1, 14]): flattened, its entries would stand for "
          "positions they were not made for")
FIX = "hint: save this sample's own mask, one entry per token, as [tokens]"


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("dump,name", [(_hs_dump, "hs_0.safetensors"), (_v1_dump, "data_0.pt")],
                         ids=["hs", "v1"])
def test_a_folded_mask_is_refused(world, tmp_path, command, dump, name):
    data = dump(world, tmp_path / "folded", lambda T: (_rows(T), T // _rows(T)))
    message = drafter_error(world, data, command)
    assert f"{name}: {FOLDED}" in message, message
    assert FIX in message, message


@pytest.mark.parametrize("dump", [_hs_dump, _v1_dump], ids=["hs", "v1"])
def test_one_entry_per_position_is_read_as_before(world, tmp_path, dump):
    flat = drafter_json(world, dump(world, tmp_path / "flat", lambda T: (T,)))
    assert flat["loss_mask_source"] != "none", flat
    for name, shape in [("row", lambda T: (1, T)), ("column", lambda T: (T, 1))]:
        out = drafter_json(world, dump(world, tmp_path / name, shape))
        assert out["samples"] == 3 and not out.get("skipped_samples"), out
        assert out["counts"] == flat["counts"], (name, out["counts"], flat["counts"])
