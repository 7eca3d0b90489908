"""`drafter layout` on a dump of every layer whose layer_ids metadata is one (or two) layers
off its tensors (a dumper numbering each layer's output, transformers'
output_hidden_states[i + 1], where the engines capture each layer's input). Since round 53
the probe ranks the right slots first ([2, 4, 5], 0.690 vs 0.524 for the slots the metadata
names as the draft's layers), but its verdict said only "the draft was trained on a different
layout than the one configured (check the aux layer ids and the engine's capture
convention)", while `drafter eval` on the same dump says the metadata is one layer off. Now
the verdict says the best slots are the ones the metadata names as the draft's layers moved
by one, names both causes as eval does, and points at the embedding output the metadata
names layer 1. The draft is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.test_hardening53_named_layers_off_by_one import _every_layer

world = informative_world("h76_named_metadata_off", seed=3)

CAUSE = ("than the layer it holds (a dumper numbering each layer's output, transformers' "
         "output_hidden_states[i + 1], where the engines capture each layer's input: fix its "
         "layer_ids and dump again), or the draft was trained on layers ")


def _layout(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_metadata_one_layer_up_is_said_by_the_verdict(world):
    out = _layout(world, _every_layer(world, "data_every_named_up", None, list(range(1, 10))))
    assert out["best"] == [2, 4, 5] and out["configured"] == [1, 3, 4]
    assert out["verdict"].endswith(  # was: nothing after "no engine feeds it by default"
        "; slots [2, 4, 5] are the ones the dump's layer_ids metadata names as layers [3, 5, "
        "6], the draft's [2, 4, 5] moved by +1: the metadata numbers each slot one layer "
        "higher " + CAUSE + "[3, 5, 6], not the ones its config names (slot 0, which it names "
        "layer 1, is exactly the embedding output, the input to layer 0)")


def test_a_metadata_two_layers_up_is_said_by_the_verdict(world):
    out = _layout(world, _every_layer(world, "data_every_named_two_up", None,
                                      list(range(2, 11))))
    assert out["best"] == [2, 4, 5]
    assert out["verdict"].endswith(
        "; slots [2, 4, 5] are the ones the dump's layer_ids metadata names as layers [4, 6, "
        "7], the draft's [2, 4, 5] moved by +2: the metadata numbers each slot 2 layers "
        "higher " + CAUSE + "[4, 6, 7], not the ones its config names (slot 0, which it names "
        "layer 2, is exactly the embedding output, the input to layer 0)")


def test_a_metadata_named_right_gets_no_such_clause(world):
    out = _layout(world, _every_layer(world, "data_every_named_right", None, list(range(0, 9))))
    assert out["best"] == [2, 4, 5] == out["configured"]
    assert "the metadata numbers each slot" not in out["verdict"], out["verdict"]
