"""`drafter layout` on a SpecForge dump where one sample's loss_mask is all zero (a
conversation whose assistant turn the chat template did not find, or cut away by the max
length). Before: `drafter eval` said "1 of 3 samples (data_0.ckpt) have a loss mask that
selects no position to score", but `drafter layout` ranked the layouts on the other two and
reported 3 samples with no word, so "probe more samples" read as if all three had counted.
Now the layout report carries the same note.
"""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world, runner  # noqa: E402
from tests.eagle3.test_hardening75_specforge_empty_sample import _specforge_dump  # noqa: E402

world = informative_world("hardening75-layout-unsupervised", seed=753)


def test_layout_names_the_sample_whose_mask_selects_nothing(world, tmp_path):
    dump = _specforge_dump(world, tmp_path / "specforge", empty=-1)
    path = dump / "rows_0-3" / "data_0.ckpt"
    record = torch.load(path, weights_only=True)
    record["loss_mask"] = torch.zeros_like(record["loss_mask"])
    torch.save(record, path)
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(dump), "--target", str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["samples"] == 3
    assert ("1 of 3 samples (data_0.ckpt) have a loss mask that selects no position to score "
            "(all zero, or only the first token): they add nothing to the accuracies; a chat "
            "template whose assistant turns were not found writes such masks") in report["notes"]
