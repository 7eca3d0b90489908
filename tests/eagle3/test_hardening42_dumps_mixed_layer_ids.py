"""Two captures of one target (same width and slot count, other layer_ids metadata: a
second run with other layers copied into the folder) in one --data. The dump's layer_ids
came from its first readable file alone and the other files were never compared to it: an
odd first file named the slots of all the others (eval ran with the wrong layout and no
word of the mix), and an odd later file was scored as if it held the first file's layers.
Now the layer_ids vote with the shapes and a file naming other layers is skipped, named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app
from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h42_mixed_layer_ids", seed=3)

RIGHT = [2, 4, 5, 6]  # the draft's aux layers [2, 4, 5] and the final state (input-to ids)
OTHER = [1, 3, 4, 6]  # another capture's layers


def _mixed(world: Path, name: str, names: list[list[int]]) -> Path:
    """world's hs samples rewritten with the layer_ids metadata names[i] on file i."""
    from safetensors.torch import load_file

    out = world / name
    out.mkdir()
    for i, layer_ids in enumerate(names):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        write_hs_sample(out / f"hs_{i}.safetensors", tensors["token_ids"],
                        tensors["hidden_states"], layer_ids=layer_ids)
    return out


def _eval(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "1", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_an_odd_first_file_does_not_name_the_slots_of_the_others(world):
    out = _eval(world, _mixed(world, "odd_first", [OTHER, RIGHT, RIGHT]))
    assert out["layout_source"] == "layer_ids", out
    assert out["layout_layer_ids"] == [2, 4, 5], out
    assert out["samples"] == 2 and out["skipped_samples"] == 1, out
    (skipped,) = out["skipped"]
    assert skipped["file"].endswith("hs_0.safetensors"), skipped
    assert "[1, 3, 4, 6]" in skipped["reason"] and "two captures" in skipped["reason"], skipped


def test_a_later_file_naming_other_layers_is_not_scored_as_the_first(world):
    out = _eval(world, _mixed(world, "odd_last", [RIGHT, RIGHT, OTHER]))
    assert out["layout_layer_ids"] == [2, 4, 5], out
    assert out["samples"] == 2 and out["skipped_samples"] == 1, out
    (skipped,) = out["skipped"]
    assert skipped["file"].endswith("hs_2.safetensors"), skipped
    assert "[2, 4, 5, 6]" in skipped["reason"], skipped


def test_one_capture_is_scored_in_full(world):
    out = _eval(world, _mixed(world, "one_capture", [RIGHT, RIGHT, RIGHT]))
    assert out["samples"] == 3 and out["skipped_samples"] == 0, out
