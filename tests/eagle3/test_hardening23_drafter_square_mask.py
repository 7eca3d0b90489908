"""A hidden-state dump whose samples keep the square attention mask the model ran with.

No reference writer saves an attention_mask (speculators' data generation: token_ids /
hidden_states / loss_mask; SpecForge's scripts/prepare_hidden_states.py: input_ids /
loss_mask / hidden_state / aux_hidden_state), so a mask comes from a hand-written dumper,
and one that saves what the model used saves transformers' [1, 1, T, T] causal mask
(additive, or boolean for SDPA). The drafter refused every such file ("attention_mask has
T*T entries"). It now reads the square mask back to the [T] mask it was built from: plain
causal attention is no padding, pad rows at either end are cut as for a [T] mask, and a
block mask (packed documents) is refused per file with the reason. A boolean mask in
torch.nn.MultiheadAttention's convention (True = masked out) reads as the same causal mask. The masks here are built
by transformers itself; the draft and states by speculators 0.9.0 (speculators_world)."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world, padded_sample  # noqa: E402

runner = CliRunner()
PAD = 3


world = informative_world("h23_square_mask", seed=3)


def _four_d(mask: torch.Tensor, states: torch.Tensor, unmask: bool) -> torch.Tensor:
    """transformers' own 4-D causal mask for a [T] padding mask (additive float)."""
    from transformers.modeling_attn_mask_utils import (
        AttentionMaskConverter,
        _prepare_4d_causal_attention_mask,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        T = mask.shape[0]
        full = _prepare_4d_causal_attention_mask(mask[None], (1, T), states[None].float(), 0)
        if unmask:  # what the SDPA path does to fully masked (left pad) rows
            full = AttentionMaskConverter._unmask_unattended(
                full, torch.finfo(torch.float32).min)
    return full


def _dump(world: Path, out: Path, side: str, form: str) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        ids, states, flat = padded_sample(path, side, PAD)
        T = ids.shape[0]
        square = _four_d(flat, states, unmask=form == "sdpa")
        if form == "bool":
            square = (square == 0)[0, 0]  # a [T, T] boolean mask, True = attends
        elif form == "masked_true":  # torch.nn.MultiheadAttention's bool: True = masked out
            square = torch.ones(T, T, dtype=torch.bool).triu(1)
        elif form == "packed":  # two documents in one row: a block-diagonal causal mask
            keep = torch.ones(T, T, dtype=torch.bool).tril()
            keep[T // 2:, :T // 2] = False
            square = keep
        save_file({"token_ids": ids, "hidden_states": states.contiguous(),
                   "attention_mask": square.contiguous()}, str(out / path.name))
    return out


def _eval(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("side,form", [("none", "additive"), ("right", "additive"),
                                       ("left", "additive"), ("left", "sdpa"),
                                       ("right", "bool"), ("none", "masked_true")])
def test_a_square_causal_mask_reads_as_the_mask_it_was_built_from(world, tmp_path, side,
                                                                   form):
    plain = _eval(world, world / "data")
    masked = _eval(world, _dump(world, tmp_path / f"{side}_{form}", side, form))
    assert masked["counts"] == plain["counts"]  # exactly the unpadded samples
    assert masked["full_accuracy"] == plain["full_accuracy"]
    notes = [n for n in masked["notes"] if "attention_mask" in n]
    if side == "none":
        assert notes == []
    else:
        assert notes and notes[0].startswith(f"3 of 3 samples carry an attention_mask "
                                             f"marking {3 * PAD} pad position(s)")


def test_a_block_mask_of_packed_documents_is_refused_with_the_reason(world, tmp_path):
    data = _dump(world, tmp_path / "packed", "none", "packed")
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    assert result.exit_code != 0
    assert "is not causal attention over the positions it keeps" in result.output
    assert "Traceback" not in result.output
