"""Hidden-state samples saved without their token ids.

Before: an hs_<i>.safetensors with hidden_states alone stopped `drafter eval` with "expected
token_ids and hidden_states tensors, found ['hidden_states']" and no hint (no word of what to
do); a torch-saved sample
without input_ids with "missing ['input_ids'], found [...]" and no hint; and speculators' v1
sample (hidden_states a list of per-layer states) without its ids with "missing
['aux_hidden_state', 'input_ids']", a SpecForge key that writer never saves. Now each names
the ids as what is missing and says what to save (the draft embeds those tokens: nothing can
stand in for them); a torch sample holding them as token_ids is told the name to use.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world

runner = CliRunner()

world = informative_world("hardening73-no-ids", seed=731)

HINT = ("hint: save each sample's token ids beside its states, the [T] ids the states were "
        "computed from (token_ids in hs_<i>.safetensors, input_ids in a torch-saved sample): the "
        "draft embeds those tokens, so a sample without them cannot be scored")


def _samples(world: Path) -> list[dict]:
    paths = sorted((world / "data").glob("hs_*.safetensors"), key=lambda p: int(p.stem[3:]))
    return [load_file(path) for path in paths]


def _eval_error(world: Path, dump: Path) -> str:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(dump), "--target", str(world / "target"), "--json"])
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def test_safetensors_states_without_ids(world, tmp_path):
    dump = tmp_path / "hs"
    dump.mkdir()
    for i, sample in enumerate(_samples(world)):
        save_file({"hidden_states": sample["hidden_states"]}, str(dump / f"hs_{i}.safetensors"))
    text = _eval_error(world, dump)
    assert ("hs_0.safetensors: expected token_ids and hidden_states tensors, found "
            "['hidden_states']: the states without the token ids they were computed from") in text, text
    assert HINT in text, text


def test_v1_list_without_ids(world, tmp_path):
    """speculators' earlier offline format: data_<i>.pt with hidden_states a list of [T, H]."""
    dump = tmp_path / "v1"
    dump.mkdir()
    for i, sample in enumerate(_samples(world)):
        hidden = sample["hidden_states"]
        torch.save({"hidden_states": [hidden[:, j] for j in range(hidden.shape[1])],
                    "loss_mask": torch.ones(hidden.shape[0], dtype=torch.long)}, dump / f"data_{i}.pt")
    text = _eval_error(world, dump)
    assert ("data_0.pt: hidden_states without the token ids they were computed from (input_ids "
            "missing), found ['hidden_states', 'loss_mask']") in text, text
    assert "aux_hidden_state" not in text, text
    assert HINT in text, text


def test_specforge_record_without_ids(world, tmp_path):
    dump = tmp_path / "specforge" / "rows_0-2000"
    dump.mkdir(parents=True)
    for i, sample in enumerate(_samples(world)):
        hidden = sample["hidden_states"]
        torch.save({"loss_mask": torch.ones(hidden.shape[0], dtype=torch.long),
                    "aux_hidden_state": torch.cat([hidden[:, j] for j in range(3)], -1)[None],
                    "hidden_state": hidden[None, :, -1].clone()}, dump / f"data_{i}.ckpt")
    text = _eval_error(world, dump.parent)
    assert ("data_0.ckpt: missing ['input_ids'], found ['aux_hidden_state', 'hidden_state', "
            "'loss_mask']") in text, text
    assert HINT in text, text


def test_specforge_record_with_ids_named_token_ids(world, tmp_path):
    dump = tmp_path / "specforge" / "rows_0-2000"
    dump.mkdir(parents=True)
    for i, sample in enumerate(_samples(world)):
        hidden = sample["hidden_states"]
        torch.save({"token_ids": sample["token_ids"],
                    "aux_hidden_state": torch.cat([hidden[:, j] for j in range(3)], -1)[None],
                    "hidden_state": hidden[None, :, -1].clone()}, dump / f"data_{i}.ckpt")
    text = _eval_error(world, dump.parent)
    assert "data_0.ckpt: missing ['input_ids'], found ['aux_hidden_state', 'hidden_state', 'token_ids']" in text, text
    assert ("hint: save the ids as input_ids, the name torch-saved samples give them (token_ids is "
            "the name in speculators' hs_<i>.safetensors)") in text, text
