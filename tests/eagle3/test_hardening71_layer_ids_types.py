"""A speculators dump's `layer_ids` metadata was coerced entry by entry with int(): `true`
read as layer 1, `2.5` as layer 2, `"3"` as layer 3, and a JSON string of digits ("0123")
was iterated character by character into layers (0, 1, 2, 3), each naming slots with no word
(a bool passed because it is an int subclass). What is not a JSON list of ints is now refused,
naming what was written and the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import drafter_error, drafter_json, informative_world

world = informative_world("h71_layer_ids_types", seed=71)

FIX = ("hint: write the metadata as a JSON list of ints, one target layer id per stored slot "
       "(json.dumps([2, 20, 37, 40])), or drop the layer_ids entry")


def _with_layer_ids(world: Path, out: Path, written: str) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        save_file(tensors, str(out / f"hs_{i}.safetensors"), metadata={"layer_ids": written})
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("written,said", [
    ('"0123"', "'\"0123\"' is a JSON string, not a list"),
    ("[true, 1, 2, 3]", "'[true, 1, 2, 3]' holds true, not layer ids"),
    ("[0, 1, 2.5, 3]", "'[0, 1, 2.5, 3]' holds 2.5, not layer ids"),
    ('[0, 1, 2, "3"]', "'[0, 1, 2, \"3\"]' holds \"3\", not layer ids"),
    ("3", "'3' is a JSON integer, not a list"),
], ids=["digit-string", "bool", "float", "string-entry", "scalar"])
def test_layer_ids_that_are_not_a_list_of_ints_are_refused(world, tmp_path, command,
                                                           written, said):
    data = _with_layer_ids(world, tmp_path / "dump", written)
    message = drafter_error(world, data, command)
    assert f"hs_0.safetensors: layer_ids metadata is not a JSON list of ints: {said}" \
        in message, message
    assert FIX in message, message


def test_a_list_of_ints_is_read_as_written(world, tmp_path):
    stored = int(load_file(str(world / "data" / "hs_0.safetensors"))["hidden_states"].shape[1])
    data = _with_layer_ids(world, tmp_path / "ok", json.dumps(list(range(stored))))
    out = drafter_json(world, data)
    assert out["samples"] == 3 and not out.get("skipped_samples"), out
