"""A speculators dump whose `layer_ids` metadata names another number of slots than its
hidden_states hold (metadata copied from a wider or narrower capture). With fewer ids than
slots, `drafter eval` and `drafter layout` crashed choosing the draft's slots from the dump's
header ("unexpected IndexError: tuple index out of range", exit 1); with more, every file was
skipped as "slot out of range (1, 3, 4) (file has 4 slots)", which names no cause. Both are
now refused from the header on, naming the two counts, with the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import drafter_error, informative_world

world = informative_world("h71_layer_ids_count", seed=71)


def _with_layer_ids(world: Path, out: Path, ids: list[int]) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        save_file(tensors, str(out / f"hs_{i}.safetensors"),
                  metadata={"layer_ids": json.dumps(ids)})
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("ids", [[1, 2], [1, 2, 3, 4, 5]])
def test_a_layer_ids_list_of_another_length_is_refused_with_its_counts(world, tmp_path,
                                                                       command, ids):
    stored = int(load_file(str(world / "data" / "hs_0.safetensors"))["hidden_states"].shape[1])
    assert stored == 4 and len(ids) != stored
    data = _with_layer_ids(world, tmp_path / "dump", ids)
    message = drafter_error(world, data, command)
    assert "IndexError" not in message and "out of range" not in message, message
    assert (f"hs_0.safetensors: layer_ids metadata names {len(ids)} slots {ids}, the file's "
            f"hidden_states hold {stored} per position") in message, message
    assert ("hint: write the metadata again with one layer id per stored slot (the last one "
            "the final layer), or drop the layer_ids entry") in message, message


def test_one_file_of_the_dump_with_a_short_list_is_skipped_and_said(world, tmp_path):
    data = tmp_path / "mixed"
    data.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        save_file(tensors, str(data / f"hs_{i}.safetensors"),
                  metadata={"layer_ids": json.dumps([1, 2] if i == 2 else [0, 1, 2, 3])})
    from tests.eagle3._world import drafter_json

    out = drafter_json(world, data)
    assert out["samples"] == 2, out
    notes = " ".join(" ".join(out.get("notes", [])).split())
    assert ("hs_2.safetensors: layer_ids metadata names 2 slots [1, 2], the file's "
            "hidden_states hold 4 per position") in notes, notes
