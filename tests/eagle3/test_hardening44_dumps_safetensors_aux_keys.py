"""A dump converted to safetensors that kept the torch writers' keys: input_ids, the aux
states concatenated (aux_hidden_states / aux_hidden_state) and the final state apart
(hidden_states / hidden_state), as Model-Optimizer and SpecForge save them in .pt/.ckpt.
Read as speculators' hs layout, the Model-Optimizer keys were refused as "hidden_states has
shape [T, H] (flattened slots?)" with the advice to stack what the file holds apart, and the
SpecForge keys as "expected token_ids and hidden_states". Now such a file is read as its
torch-saved twin, and scores as speculators' own dump of the same states."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import drafter_json, informative_world, torch

world = informative_world("h44_safetensors_aux_keys", seed=44)


def _converted(world: Path, out: Path, writer: str) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"]  # [T, 4, H]: aux layers, then the final one
        T = states.shape[0]
        aux, last = states[:, :3].reshape(T, -1).contiguous(), states[:, 3].contiguous()
        record = ({"input_ids": tensors["token_ids"], "aux_hidden_states": aux, "hidden_states": last}
                  if writer == "modelopt" else
                  {"input_ids": tensors["token_ids"][None].contiguous(), "aux_hidden_state": aux[None],
                   "hidden_state": last[None], "loss_mask": torch.ones(1, T, dtype=torch.long)})
        save_file(record, str(out / f"data_{i}.safetensors"))
    return out


@pytest.mark.parametrize("writer", ["modelopt", "specforge"])
def test_torch_writer_keys_in_safetensors_score_as_the_hs_dump(world, tmp_path, writer):
    converted = drafter_json(world, _converted(world, tmp_path / writer, writer))
    original = drafter_json(world, world / "data")
    assert converted["samples"] == 3 and converted["skipped_samples"] == 0, converted["notes"]
    assert converted["data_format"] == writer
    assert converted["full_accuracy"] == original["full_accuracy"]
