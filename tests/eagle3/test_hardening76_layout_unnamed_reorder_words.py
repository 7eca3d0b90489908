"""`drafter layout` on a dump that holds the draft's aux layers in another order ([4, 5, 2]
for a draft trained on [2, 4, 5], then the final state: a dumper that concatenated its
captures in the order they were registered). On a dump that does not name its slots the
verdict said the dump "saved them in another order than its layer_ids metadata or the
config's eagle_aux_hidden_state_layer_ids name", metadata the dump does not have, which sent
the user looking for it. Now a dump without layer_ids is told its order is set against the
config's list alone, and that nothing in the dump records the order its dumper wrote; a dump
whose metadata names its slots keeps the words about that metadata. The draft is saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

from pathlib import Path

from tests.eagle3._world import drafter_json, informative_world, torch  # noqa: F401

from tests.eagle3.test_hardening46_layout_embed_shift import _slots_of

world = informative_world("h76_unnamed_reorder", seed=5)

REORDER = "it reads the configured slots in another order: the dump holds the draft's layers "
METADATA = "than its layer_ids metadata"
UNNAMED = ("but saved them in another order than the config's eagle_aux_hidden_state_layer_ids "
           "lists them (the dump names no layers, so nothing in it records the order its "
           "dumper wrote), or the draft was trained on them in that order; check the order the "
           "dumper concatenated the layers in")


def _rotated(world: Path, name: str, layer_ids=None) -> Path:
    """world's samples with the draft's layers written as [4, 5, 2], then the final state,
    with `layer_ids` metadata when given."""
    from safetensors.torch import load_file

    from spec_debug.eagle3.data import write_hs_sample

    out = _slots_of(world, name, lambda ids, s: s[:, [1, 2, 0, 3]])
    if layer_ids is not None:
        for path in sorted(out.glob("hs_*.safetensors")):
            tensors = load_file(str(path))
            write_hs_sample(path, tensors["token_ids"], tensors["hidden_states"],
                            layer_ids=layer_ids)
    return out


def test_an_unnamed_dump_is_not_sent_to_metadata_it_does_not_have(world):
    out = drafter_json(world, _rotated(world, "rotated"), "layout")
    assert out["best"] == [2, 0, 1] and out["dump_layer_ids"] is None
    assert METADATA not in out["verdict"], out["verdict"]  # was: "... than its layer_ids metadata"
    assert REORDER + UNNAMED in out["verdict"], out["verdict"]


def test_a_dump_whose_metadata_names_its_slots_keeps_the_metadata_words(world):
    # the metadata says [2, 4, 5, 8] over states stacked [4, 5, 2, final]
    out = drafter_json(world, _rotated(world, "rotated_named", [2, 4, 5, 8]), "layout")
    assert out["best"] == [2, 0, 1] and out["dump_layer_ids"] == [2, 4, 5, 8]
    assert (REORDER + "but saved them in another order than its layer_ids metadata or the "
            "config's eagle_aux_hidden_state_layer_ids name") in out["verdict"], out["verdict"]
