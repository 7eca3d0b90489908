"""A dump script that builds the target on the meta device (from_config under
torch.device("meta"), the fast init before weights are loaded) and forgets to load them still
runs: the forward on real ids gives meta hidden states, which torch.save writes and
torch.load reads back as shapes with no values. `drafter eval` ended in "unexpected
RuntimeError: Tensor.item() cannot be called on meta tensors" (exit 1, "please report it");
states saved sparse (to_sparse()) in "reshape is not implemented for sparse tensors". Both are
now refused file by file with what the file holds and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
import transformers
from safetensors.torch import load_file

from tests.eagle3._world import drafter_error, informative_world, torch
from tests.eagle3.speculators_world import AUX

world = informative_world("h72_meta_states", seed=72)


def _meta_dump(world: Path, out: Path) -> Path:
    """SpecForge data_*.ckpt of the world's ids with the states of a target built on meta."""
    config = transformers.AutoConfig.from_pretrained(str(world / "target"))
    with torch.device("meta"):
        target = transformers.AutoModelForCausalLM.from_config(config)
    out.mkdir()
    for i in range(3):
        ids = load_file(str(world / "data" / f"hs_{i}.safetensors"))["token_ids"]
        with torch.no_grad():
            hidden = target(ids[None], output_hidden_states=True).hidden_states
        aux = torch.cat([hidden[j][0] for j in AUX], dim=-1)  # [T, 3H]
        assert aux.is_meta
        torch.save({"input_ids": ids, "aux_hidden_state": aux, "hidden_state": hidden[-1][0],
                    "loss_mask": torch.ones(len(ids), dtype=torch.long)}, out / f"data_{i}.ckpt")
    return out


def test_states_of_a_target_left_on_meta_are_refused_with_the_cause(world, tmp_path):
    said = drafter_error(world, _meta_dump(world, tmp_path / "meta"))
    assert ("data_0.ckpt: aux_hidden_state is on the meta device: a shape with no values (the "
            "target ran with its weights on the meta device, built under init_empty_weights or "
            "torch.device('meta') and never loaded)") in said, said
    assert "hint: dump the hidden states again from the target with its weights loaded" in said
    assert "unexpected" not in said


@pytest.mark.parametrize("kind", ["specforge", "speculators_v1"])
def test_sparse_states_are_refused(world, tmp_path, kind):
    out = tmp_path / "sparse"
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids, h = tensors["token_ids"], tensors["hidden_states"].float()
        if kind == "specforge":
            torch.save({"input_ids": ids,
                        "aux_hidden_state": h[:, :-1].reshape(h.shape[0], -1).to_sparse(),
                        "hidden_state": h[:, -1]}, out / f"data_{i}.ckpt")
        else:
            torch.save({"input_ids": ids,
                        "hidden_states": [h[:, j].to_sparse() for j in range(h.shape[1])]},
                       out / f"data_{i}.pt")
    said = drafter_error(world, out)
    key = "aux_hidden_state" if kind == "specforge" else "hidden_states"
    assert f"{key} is a sparse_coo tensor; the drafter reads dense ones" in said, said
    assert f"hint: save {key} dense (.to_dense()) with torch.save" in said, said
