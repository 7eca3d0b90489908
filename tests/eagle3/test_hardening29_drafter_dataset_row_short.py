"""speculators' prepared dataset beside its hidden_states/ (row i gives hs_i its loss_mask),
row 1 holding one input id fewer than hs_1's token_ids. speculators' ArrowDataset skips that
file (torch.equal of the ids), as eval does, but eval's reason only said the ids "differ",
not that the row is one id short. Now it gives both lengths."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
datasets = pytest.importorskip("datasets")

from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def test_a_row_one_id_short_is_skipped_with_both_lengths(tmp_path):
    world = save_informative_world(tmp_path / "world", seed=1)
    hidden = tmp_path / "dataset" / "hidden_states"
    shutil.copytree(world / "data", hidden)
    rows = []
    for i in range(3):
        ids = load_file(str(hidden / f"hs_{i}.safetensors"))["token_ids"].tolist()
        ids = ids[:-1] if i == 1 else ids
        rows.append({"input_ids": ids, "loss_mask": [1] * len(ids)})
    datasets.Dataset.from_list(rows).save_to_disk(str(tmp_path / "dataset"))
    result = evaluate_drafter(world / "draft", hidden, world / "target")
    [skipped] = result["skipped"]
    assert skipped["reason"] == (f"hs_1.safetensors: its token_ids differ from row 1 of the dataset "
                                 f"{tmp_path / 'dataset'} (speculators' loader skips such a file): "
                                 "the row holds 14 ids, the file 15")
    assert result["counts"]["full_total"][0] == 28
