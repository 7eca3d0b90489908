"""The every-position rerun (every loss_mask empty) leaves a sample's tail zero padding out
(data.every_position_mask, round 28). A sample written at its first row only, the rest SpecForge's
zero padding, then scores no row, and the rerun counted it as a sample "whose loss mask selects
no position ... a chat template whose assistant turns were not found" beside the note that no
loss mask selects any and every position was scored: two notes that disagree, the second
blaming a mask the rerun does not read. Now the rerun counts no sample against its mask."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def test_a_sample_all_padding_but_its_first_row_is_not_blamed_on_its_mask(tmp_path):
    world = save_informative_world(tmp_path / "world", seed=1)
    dump = tmp_path / "padded"
    dump.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if path.name == "hs_1.safetensors":
            tensors["hidden_states"][1:] = 0  # one token, then batch padding
        tensors["loss_mask"] = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        save_file(tensors, str(dump / path.name))
    result = evaluate_drafter(world / "draft", dump, world / "target")
    assert result["counts"]["full_total"][0] == 28  # 13 + 15 rows: hs_1 has none to score
    assert result["full_accuracy"][0] == pytest.approx(0.6786, abs=1e-4)
    assert [n for n in result["notes"] if "chat template" in n] == [
        "the loss_mask selects no position to score in any of the 3 samples (all zero, or only "
        "the first token): every position was scored instead; a chat template whose assistant "
        "turns were not found writes such masks"]
