"""A speculators hs dump whose loss_masks are all zero (eval then scores every position) and
one file padded at the tail with zero rows (SpecForge's batch padding, loss_mask 0 there). The
first pass lets the padding through (no scored row at or after it); the every-position rerun
scored it: the draft read zeros as context and predicted pad tokens, step-0 accuracy 0.595
over 42 rows. Now the rerun leaves the padding out as the first pass does: 0.676 over 37 rows,
what the same dump gives with the padding cut off."""

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
    return save_informative_world(tmp_path_factory.mktemp("padding_rerun"), seed=1)


def _unmasked(world: Path, out: Path, *, pad: bool) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        if path.name == "hs_1.safetensors":
            if pad:
                tensors["hidden_states"][10:] = 0
            else:
                tensors = {k: v[:10].contiguous() for k, v in tensors.items()}
        tensors["loss_mask"] = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        save_file(tensors, str(out / path.name))
    return out


def test_every_position_rerun_leaves_tail_padding_out(world, tmp_path):
    padded = evaluate_drafter(world / "draft", _unmasked(world, tmp_path / "pad", pad=True),
                              world / "target")
    cut = evaluate_drafter(world / "draft", _unmasked(world, tmp_path / "cut", pad=False),
                           world / "target")
    assert padded["skipped"] == []
    assert any(n.startswith("the loss_mask selects no position") for n in padded["notes"])
    assert padded["counts"]["full_total"][0] == cut["counts"]["full_total"][0] == 37
    assert padded["full_accuracy"][0] == pytest.approx(cut["full_accuracy"][0])
    assert padded["full_accuracy"][0] == pytest.approx(0.6757, abs=1e-4)
