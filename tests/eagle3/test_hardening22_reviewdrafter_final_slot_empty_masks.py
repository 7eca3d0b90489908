"""A dump with the target's final layer in slot 0 AND loss masks that select nothing (a chat
template whose assistant turns were not found): `drafter eval` scores every position then
(api.evaluate_drafter), but its final-slot check kept the empty masks and compared 0 rows with
0 rows, so the swapped slot went unsaid (`drafter layout` replaces the masks before its check
and named it). Real library: speculators 0.9.0's draft over a transformers Llama verifier."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """data_final_first/: the states as [final, l2, l4, l5], every loss_mask all zero."""
    root = save_informative_world(tmp_path_factory.mktemp("h22_review_empty_masks"), seed=3)
    out = root / "data_final_first"
    out.mkdir()
    for path in sorted((root / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": tensors["hidden_states"][:, [3, 0, 1, 2]].contiguous(),
                   "loss_mask": torch.zeros(tensors["token_ids"].numel(), dtype=torch.long)},
                  str(out / path.name))
    return root


def test_eval_names_the_final_slot_when_every_position_is_scored(world):
    result = CliRunner().invoke(drafter_app, [
        "eval", "--model", str(world / "draft"), "--data", str(world / "data_final_first"),
        "--target", str(world / "target"), "--steps", "1", "--json"])
    assert result.exit_code == 0, result.output
    notes = json.loads(result.output)["notes"]
    assert any("selects no position to score in any" in n for n in notes), notes
    final = [n for n in notes if n.startswith("slot 0 holds the target's final layer")]
    assert len(final) == 1, notes
    assert "hidden_states[:, [1, 2, 3, 0]]" in final[0]
