"""A speculators hs dump where one aux slot is all zeros at some positions while the other
slots there hold states: a capture that lost one layer for those positions (a hook that
missed them, a partial write). Only rows zero in every slot were told apart, so these were
scored as real: slot 1 of hs_1 zero at 4 of its 15 positions took step-0 accuracy from 0.690
to 0.619 with no word. speculators' loader checks a file for NaN/Inf only and would train on
the zeros as the layer's output. Now the rows reading them are left out (38 rows, 0.658) and
a note gives the count and the slot."""

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
    return save_informative_world(tmp_path_factory.mktemp("lost_layer"), seed=1)


def _lost(world: Path, out: Path, *, loss_mask: bool) -> Path:
    """world's data/ with slot 1 of hs_1 zero at positions 4..7 (every loss_mask zero when
    not `loss_mask`: eval then scores every position)."""
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if path.name == "hs_1.safetensors":
            tensors["hidden_states"][4:8, 1] = 0
        if not loss_mask:
            tensors["loss_mask"] = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        save_file(tensors, str(out / path.name))
    return out


def test_rows_reading_a_lost_layer_are_left_out_and_said(world, tmp_path):
    result = evaluate_drafter(world / "draft", _lost(world, tmp_path / "lost", loss_mask=True),
                              world / "target")
    assert result["skipped"] == []
    assert result["counts"]["full_total"][0] == 38  # 42 rows, the 4 reading the zeros left out
    assert result["full_accuracy"][0] == pytest.approx(0.6579, abs=1e-4)
    [note] = [n for n in result["notes"] if "lost a layer" in n]
    assert note.startswith("1 of 3 samples have 4 position(s) where slot(s) 1 of the "
                           "hidden_states are all zeros while their other slots are not")
    assert "the 4 scored row(s) that read them were left out" in note
    assert "check_hidden_states" in note


def test_the_every_position_rerun_leaves_them_out_too(world, tmp_path):
    result = evaluate_drafter(world / "draft", _lost(world, tmp_path / "rerun", loss_mask=False),
                              world / "target")
    assert result["counts"]["full_total"][0] == 38
    assert [n for n in result["notes"] if "lost a layer" in n]


def test_a_sound_dump_has_no_such_note(world):
    result = evaluate_drafter(world / "draft", world / "data", world / "target")
    assert result["counts"]["full_total"][0] == 42
    assert not [n for n in result["notes"] if "lost a layer" in n]
