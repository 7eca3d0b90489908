"""A dump whose aux layers were saved in another order than its layer_ids metadata (and the
config's eagle_aux_hidden_state_layer_ids) name. drafter layout found the reordered slots
but said only "the draft was trained on a different layout", sending the user to the
draft, not to the order the dumper wrote the layers in. Now the verdict says the same
layers were read in another order, and where that order goes wrong."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app
from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h43_aux_order", seed=3)

LAYER_IDS = [2, 4, 5, 6]  # the draft's aux layers [2, 4, 5] and the final state


def _reordered(world: Path, name: str, order: list[int]) -> Path:
    """world's hs samples with their slots written in `order`, the metadata left as is."""
    from safetensors.torch import load_file

    out = world / name
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        write_hs_sample(out / f"hs_{i}.safetensors", tensors["token_ids"],
                        tensors["hidden_states"][:, order], layer_ids=LAYER_IDS)
    return out


def _layout(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_aux_layers_saved_swapped_are_said_as_an_order_fault(world):
    out = _layout(world, _reordered(world, "swapped", [1, 0, 2, 3]))
    assert out["best"] == [1, 0, 2], out["verdict"]
    assert "reads the configured slots in another order" in out["verdict"], out["verdict"]
    assert "eagle_aux_hidden_state_layer_ids" in out["verdict"], out["verdict"]


def test_the_dump_in_order_has_no_order_clause(world):
    out = _layout(world, world / "data")
    assert "another order" not in out["verdict"], out["verdict"]
