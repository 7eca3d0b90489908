"""Hidden states captured by a forward hook outside torch.no_grad() and saved with torch.save
without .detach() keep requires_grad=True in the file (SpecForge data_*.ckpt, speculators v1
data_*.pt alike). `drafter eval` scored them right but printed torch's "Converting a tensor with
requires_grad=True to a scalar may lead to unexpected behavior. Consider using
tensor.detach() first." from its own reader into the report, as if the tool had a fault. The
torch readers now cut what they load from autograd: no warning, the same counts."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from safetensors.torch import load_file

from spec_debug.eagle3.data import read_sample
from tests.eagle3._world import drafter_json, informative_world, torch

world = informative_world("h72_requires_grad_dump", seed=72)


def _hooked(states: torch.Tensor) -> torch.Tensor:
    """states as a hook outside no_grad hands them over: the output of an op on a parameter."""
    scale = torch.nn.Parameter(torch.ones(()))
    return states.float() * scale  # requires_grad, a grad_fn


def _dump(world: Path, out: Path, kind: str, hooked: bool) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, h = tensors["token_ids"], tensors["hidden_states"].float()  # [T], [T, S, H]
        h = _hooked(h) if hooked else h
        if kind == "specforge":  # SpecForge prepare_hidden_states: torch.save of one dict
            record = {"input_ids": ids, "aux_hidden_state": h[:, :-1].reshape(h.shape[0], -1),
                      "hidden_state": h[:, -1], "loss_mask": torch.ones(len(ids), dtype=torch.long)}
            torch.save(record, out / f"data_{i}.ckpt")
        else:  # speculators v1: hidden_states a list of [T, H] layers
            record = {"input_ids": ids, "hidden_states": [h[:, j] for j in range(h.shape[1])],
                      "loss_mask": torch.ones(len(ids), dtype=torch.long)}
            torch.save(record, out / f"data_{i}.pt")
    return out


@pytest.mark.parametrize("kind", ["specforge", "speculators_v1"])
def test_states_saved_with_requires_grad_read_silently_as_the_plain_dump(world, tmp_path, kind):
    hooked = _dump(world, tmp_path / "hooked", kind, hooked=True)
    first = next(hooked.iterdir())
    assert torch.load(first, weights_only=True)[
        "hidden_state" if kind == "specforge" else "hidden_states"][0].requires_grad
    plain = drafter_json(world, _dump(world, tmp_path / "plain", kind, hooked=False))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sample = read_sample(first)
        out = drafter_json(world, hooked)
    said = [str(w.message) for w in caught if "requires_grad" in str(w.message)]
    assert said == [], said
    assert not sample.slots.requires_grad and not sample.final.requires_grad
    assert out["samples"] == plain["samples"] == 3 and out["counts"] == plain["counts"]
