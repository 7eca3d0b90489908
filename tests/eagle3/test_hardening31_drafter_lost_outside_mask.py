"""The rows that read a lost layer (an aux slot all zeros at a position whose other slots hold
states) were left out at every TTT step only when one of them was in the loss mask at step 0
(evaluate._sample_targets passed them on only when it counted such a row): a sample whose lost
rows all sat outside the step-0 mask had those rows' chains counted at step >= 1, as misses
(their chain never starts, the row is outside step 0's mask, but its total counted). hs_1
(15 positions, rows 0..13) with loss_mask 0 at position 1 only (row 0 predicts it) and slot 1
lost at position 0 (row 0 reads it): step 0 scores 41 rows (42 - row 0), step 1 38 (39 - row
0's chain, which reads the zeros). Before: 41 and 39, row 0 counted as a step-1 miss."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("lost_outside"), seed=1)


def _data(world: Path, out: Path, *, lost: bool) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        mask = torch.ones(tensors["token_ids"].shape[0], dtype=torch.long)
        if path.name == "hs_1.safetensors":
            mask[1] = 0  # row 0 (input position 0, predicting position 1) is out at step 0
            if lost:
                tensors["hidden_states"][0, 1] = 0
        tensors["loss_mask"] = mask
        save_file(tensors, str(out / path.name))
    return out


def test_lost_rows_outside_the_step0_mask_are_left_out_at_later_steps(world, tmp_path):
    sound = evaluate_drafter(world / "draft", _data(world, tmp_path / "sound", lost=False),
                             world / "target", steps=2)
    assert sound["counts"]["full_total"] == [41, 39]
    result = evaluate_drafter(world / "draft", _data(world, tmp_path / "lost", lost=True),
                              world / "target", steps=2)
    assert result["counts"]["full_total"] == [41, 38]
    [note] = [n for n in result["notes"] if "lost a layer" in n]
    assert "1 position(s) where slot(s) 1" in note
    assert "the 1 scored row(s) that read them were left out" in note
