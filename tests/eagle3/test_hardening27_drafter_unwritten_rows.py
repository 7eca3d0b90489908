"""A speculators hs_*.safetensors whose states are zero in every slot from some position on
(padding saved without its attention_mask, a buffer saved before it was filled). It was
scored with the zeros as context: one such file of three took step-0 accuracy from 0.690 to
0.524 with no word. Now the file is skipped with the positions and the fix, and the other
files are scored as without it."""

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
    return save_informative_world(tmp_path_factory.mktemp("unwritten"), seed=1)


def _zeroed(world: Path, out: Path, rows: slice) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if path.name == "hs_1.safetensors":
            tensors["hidden_states"][rows] = 0
        save_file(tensors, str(out / path.name))
    return out


def test_rows_never_written_skip_their_file_with_the_positions(world, tmp_path):
    result = evaluate_drafter(world / "draft", _zeroed(world, tmp_path / "tail", slice(5, None)),
                              world / "target")
    [skipped] = result["skipped"]
    assert skipped["file"].endswith("hs_1.safetensors")
    assert skipped["reason"].startswith(
        "hs_1.safetensors: the hidden_states are all zeros in every slot at 10 of 15 "
        "positions, first at 5 (the last positions: right padding): states the capture never "
        "wrote")
    assert result["full_accuracy"][0] == pytest.approx(0.6786, abs=1e-4)  # hs_0, hs_2 alone


def test_one_zero_slot_at_a_row_is_not_an_unwritten_row(world, tmp_path):
    out = tmp_path / "one_slot"
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        tensors["hidden_states"][3, 0] = 0  # one slot of one row: a state may hold zeros
        save_file(tensors, str(out / path.name))
    assert evaluate_drafter(world / "draft", out, world / "target")["skipped"] == []


def test_zero_rows_after_the_last_scored_position_are_padding(world, tmp_path):
    out = tmp_path / "masked_tail"
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        T = tensors["token_ids"].shape[0]
        tensors["loss_mask"] = torch.ones(T, dtype=torch.long)
        if path.name == "hs_1.safetensors":  # SpecForge's batch padding: zeros, loss_mask 0
            tensors["hidden_states"][10:] = 0
            tensors["loss_mask"][10:] = 0
        save_file(tensors, str(out / path.name))
    assert evaluate_drafter(world / "draft", out, world / "target")["skipped"] == []


def test_aux_slots_holding_one_layer_skip_their_file(world, tmp_path):
    out = tmp_path / "repeated"
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if path.name == "hs_2.safetensors":  # a late-binding hook: slot 0's layer in slot 1
            tensors["hidden_states"][:, 1] = tensors["hidden_states"][:, 0]
        save_file(tensors, str(out / path.name))
    result = evaluate_drafter(world / "draft", out, world / "target")
    [skipped] = result["skipped"]
    assert skipped["reason"] == (
        "hs_2.safetensors: slots 0 and 1 of the hidden_states are equal at all 16 positions: "
        "one layer captured twice (a hook that stores under the wrong layer id, or a layer "
        "listed twice), so the draft reads it in place of another; fix the capture so each "
        "aux slot holds its own layer and dump again")
