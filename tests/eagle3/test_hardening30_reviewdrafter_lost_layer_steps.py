"""The rows that read a lost layer (an aux slot all zeros at a position whose other slots hold
states) were left out through the loss mask, which is aligned to the predicted position: at
TTT step k that left out row t - k, an innocent one, and scored row t's chain, which reads the
zeros, as a miss (its chain never starts). The note says the rows that read them were left
out. Now they are, at every step: hs_1 (15 positions, rows 0..13) with slot 1 lost at
position 0 scores 41 rows at step 0 (42 - 1) and 38 at step 1 (39 - 1: row 0's chain); lost
at position 13 (the last row), 41 at step 0 and all 39 at step 1 (row 13 has no step-1
prediction). Before: 41 and 39 (row 0's chain scored a miss), 41 and 38 (row 12 left out)."""

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
    return save_informative_world(tmp_path_factory.mktemp("lost_steps"), seed=1)


def _lost_at(world: Path, out: Path, position: int) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if path.name == "hs_1.safetensors":
            tensors["hidden_states"][position, 1] = 0
        save_file(tensors, str(out / path.name))
    return out


@pytest.mark.parametrize(("position", "totals"), [(0, [41, 38]), (13, [41, 39])])
def test_the_row_reading_the_lost_state_is_left_out_at_every_step(world, tmp_path, position,
                                                                  totals):
    result = evaluate_drafter(world / "draft", _lost_at(world, tmp_path / "d", position),
                              world / "target", steps=2)
    assert result["counts"]["full_total"] == totals
    [note] = [n for n in result["notes"] if "lost a layer" in n]
    assert "the 1 scored row(s) that read them were left out" in note
