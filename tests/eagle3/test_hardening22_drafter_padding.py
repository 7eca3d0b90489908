"""A hidden-state dump saved from a padded batch: each hs file keeps the batch's
attention_mask beside token_ids / hidden_states, with pad rows at one end. speculators'
loader reads token_ids and hidden_states only (src/speculators/train/data.py), and so did
the drafter: the pad rows were scored as tokens and the accuracy fell (0.69 -> 0.54 on this
world) with no word. Now the rows the mask marks as padding at either end are cut off, which
scores exactly the unpadded samples, and a note says so; masked rows inside a sequence
(packed documents) are refused per file with the reason. Real library: speculators 0.9.0's
draft over a transformers Llama verifier, states captured as vLLM captures them."""

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
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
PAD = 4


world = informative_world("h22_padding", seed=3)


def _padded(world: Path, out: Path, side: str) -> Path:
    """Each sample padded with PAD zero rows (pad id 0) on `side`, attention_mask beside."""
    out.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        pad_ids = torch.zeros(PAD, dtype=ids.dtype)
        pad_states = torch.zeros(PAD, *states.shape[1:], dtype=states.dtype)
        mask = torch.ones(ids.shape[0] + PAD, dtype=torch.long)
        if side == "right":
            ids, states = torch.cat([ids, pad_ids]), torch.cat([states, pad_states])
            mask[-PAD:] = 0
        elif side == "left":
            ids, states = torch.cat([pad_ids, ids]), torch.cat([pad_states, states])
            mask[:PAD] = 0
        else:  # a hole inside the sequence
            mask[3:3 + PAD] = 0
            ids, states = torch.cat([ids, pad_ids]), torch.cat([states, pad_states])
        save_file({"token_ids": ids, "hidden_states": states.contiguous(),
                   "attention_mask": mask}, str(out / path.name))
    return out


def _eval(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_rows_an_attention_mask_marks_are_not_scored(world, tmp_path, side):
    plain = _eval(world, world / "data")
    padded = _eval(world, _padded(world, tmp_path / side, side))
    assert padded["counts"] == plain["counts"]  # exactly the unpadded samples
    assert padded["full_accuracy"] == plain["full_accuracy"]
    notes = [n for n in padded["notes"] if "attention_mask" in n]
    assert notes == [f"3 of 3 samples carry an attention_mask marking {3 * PAD} pad "
                     "position(s) in all: scored without them; speculators' loader ignores "
                     "attention_mask (src/speculators/train/data.py) and would train on the "
                     "padding as tokens: write one unpadded sample per sequence"]
    assert not [n for n in plain["notes"] if "attention_mask" in n]


def test_masked_rows_inside_a_sequence_are_refused_with_the_reason(world, tmp_path):
    data = _padded(world, tmp_path / "holes", "inside")
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    assert result.exit_code != 0
    assert f"attention_mask masks {PAD} positions inside the sequence" in result.output
    assert "Traceback" not in result.output
