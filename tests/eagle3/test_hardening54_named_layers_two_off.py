"""A dump whose layer_ids metadata names every slot two layers above the layer it holds (a
dumper numbering each layer's output and counting the embedding output as layer 1). Eval fed
fc the slots the metadata names for the draft's aux layers [2, 4, 5], which hold layers
[0, 2, 3], and the draft scored low; the neighbour check scored only the slots named one
layer below and above, so nothing was said, and `drafter layout` did not always score the
draft's own layers. Both now try two-layer shifts too (the nearest first). The draft is saved
by speculators 0.9.0 over a transformers Llama verifier whose every layer's input is
captured here (tests/eagle3/test_hardening53_named_layers_off_by_one.py)."""

from __future__ import annotations

import json

from tests.eagle3._world import informative_world, runner  # noqa: F401
from tests.eagle3.test_hardening53_named_layers_off_by_one import _eval, _every_layer

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h54_named_two_off", seed=3)

OFF = "the metadata numbers each slot 2 layers higher than the layer it holds"


def test_an_every_layer_dump_named_two_layers_up_is_said(world):
    data = _every_layer(world, "data_every_named_two_up", None, list(range(2, 11)))
    out = _eval(world, data)
    assert out["layout_source"] == "layer_ids" and out["layout"] == [0, 2, 3]
    assert out["full_accuracy"][0] < 0.6, out["full_accuracy"]
    [said] = [n for n in out["notes"] if OFF in n]
    assert said.startswith("the slots [2, 4, 5] the dump's layer_ids metadata names as layers "
                           "[4, 6, 7] score ")
    assert "--layout 2,4,5 evaluates with those slots" in said
    assert _eval(world, data, "--layout", "2,4,5")["full_accuracy"][0] > 0.6


def test_drafter_layout_scores_the_draft_layers_two_off(world):
    data = _every_layer(world, "data_every_named_two_up", None, list(range(2, 11)))
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["best"] == [2, 4, 5], out["ranked"][:3]
