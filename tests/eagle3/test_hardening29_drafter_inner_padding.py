"""A speculators hs dump whose loss_masks are all zero (eval then scores every position) and
one file with rows zero in every slot in the middle (a packed batch's padding between two
documents, or rows the capture never wrote). The every-position rerun left out only the tail
padding (round 28) and scored the middle: the draft read zeros as context and predicted pad
tokens, all 42 rows scored, with no word. speculators' collate fills padding
with loss_mask 0 and shifts each document before packing (a document's first token is never
predicted). Now the rerun leaves out the zero rows and the row after them, as that loss mask
would, and says so: 38 rows, step-0 accuracy 0.658."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.eagle3.data import every_position_mask, iter_samples  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def rerun_dump(world: Path, out: Path, zero_rows: slice | None) -> Path:
    """world's data/ with every loss_mask zero (eval scores every position) and hs_1's
    `zero_rows` zero in every slot; returns out."""
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if zero_rows is not None and path.name == "hs_1.safetensors":
            tensors["hidden_states"][zero_rows] = 0
        tensors["loss_mask"] = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        save_file(tensors, str(out / path.name))
    return out


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("inner_padding")
    world = save_informative_world(root / "world", seed=1)
    return world, rerun_dump(world, root / "gap", slice(5, 8))  # 3 rows of 15 never written


def test_every_position_mask_leaves_out_a_middle_gap_and_the_row_after_it(dump):
    _, out = dump
    [sample] = [s for s in iter_samples(out) if s.name == "hs_1.safetensors"]
    mask = every_position_mask(sample)
    assert mask.tolist() == [True] * 5 + [False] * 4 + [True] * 6


def test_the_rerun_leaves_out_a_middle_gap_and_says_so(dump):
    world, out = dump
    result = evaluate_drafter(world / "draft", out, world / "target")
    assert result["skipped"] == []
    assert result["counts"]["full_total"][0] == 38  # 42 rows, 4 of hs_1's left out
    assert result["full_accuracy"][0] == pytest.approx(0.6579, abs=1e-4)
    [note] = [n for n in result["notes"] if "before their last written one" in n]
    assert note.startswith("1 of 3 samples have positions zero in every slot before their last "
                           "written one") and "the 4 row(s) that read those zeros" in note
    assert not [n for n in result["notes"] if " end in " in n]  # no tail padding here
