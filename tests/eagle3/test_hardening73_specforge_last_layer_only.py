"""SpecForge dumps of the last layer only: scripts/prepare_hidden_states.py run without
--enable-aux-hidden-states (a store_true flag, off unless given).

From 2025-11 to 2026-07 the script saved `asdict(DataPoint)` per sample, so such a file holds
input_ids, loss_mask, hidden_state and `aux_hidden_state: None`
(sgl-project/SpecForge scripts/prepare_hidden_states.py, DataPoint and _save_tensor_sync).
Before: `drafter eval` / `drafter layout` stopped with "missing ['aux_hidden_state'], found
['aux_hidden_state', 'hidden_state', 'input_ids', 'loss_mask']", a message that contradicts
itself, with no hint. Now the error says the aux states were not saved and names the flag to
run the script again with (into a new --output-path: the script skips files already there).
Earlier versions (v0.1.0) left the aux key out; that file was already named an EAGLE-1/2
sample, and its hint now names the same flag.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Optional

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world

runner = CliRunner()

world = informative_world("hardening73-specforge-last", seed=73)


@dataclasses.dataclass
class DataPoint:
    """SpecForge's record (scripts/prepare_hidden_states.py, 2025-11 to 2026-07)."""

    input_ids: torch.Tensor
    loss_mask: torch.Tensor
    hidden_state: torch.Tensor
    aux_hidden_state: Optional[torch.Tensor] = None


def _samples(world: Path) -> list[dict]:
    paths = sorted((world / "data").glob("hs_*.safetensors"), key=lambda p: int(p.stem[3:]))
    return [load_file(path) for path in paths]


def _write(world: Path, root: Path, *, aux: bool, key: bool = True) -> Path:
    """SpecForge's rows_<g>-<g+2000>/data_<i>.ckpt; aux=False: the run without the flag."""
    folder = root / "rows_0-2000"
    folder.mkdir(parents=True)
    for i, sample in enumerate(_samples(world)):
        hidden = sample["hidden_states"]
        T = hidden.shape[0]
        point = DataPoint(input_ids=sample["token_ids"], loss_mask=torch.ones(T, dtype=torch.long),
                          hidden_state=hidden[None, :, -1].clone(),
                          aux_hidden_state=(torch.cat([hidden[:, j] for j in range(3)], -1)[None]
                                            if aux else None))
        record = dataclasses.asdict(point)
        if not key:
            del record["aux_hidden_state"]  # v0.1.0: the key was never set
        torch.save(record, folder / f"data_{i}.ckpt")
    return root


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


@pytest.mark.parametrize("command", ["eval", "layout"])
def test_aux_saved_as_none_names_the_flag(world, tmp_path, command):
    dump = _write(world, tmp_path / "hidden_states", aux=False)
    result = _run(command, "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "data_0.ckpt: aux_hidden_state is None, only the last layer's hidden_state was saved" in text, text
    assert "without --enable-aux-hidden-states" in text, text
    assert ("hint: run SpecForge's scripts/prepare_hidden_states.py again with "
            "--enable-aux-hidden-states") in text, text
    assert "new --output-path" in text, text
    assert "missing ['aux_hidden_state']" not in text, text


def test_one_sample_without_aux_is_skipped_with_the_reason(world, tmp_path):
    """A folder where one sample was written by the run without the flag: the others are
    scored, and the skip says why."""
    dump = _write(world, tmp_path / "hidden_states", aux=True)
    broken = dump / "rows_0-2000" / "data_1.ckpt"
    record = torch.load(broken, weights_only=True)
    record["aux_hidden_state"] = None
    torch.save(record, broken)
    result = _run("eval", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    assert got["samples"] == 2 and got["skipped_samples"] == 1
    reason = got["skipped"][0]["reason"]
    assert "data_1.ckpt: aux_hidden_state is None" in reason, reason


def test_v010_file_without_the_aux_key_names_the_flag_too(world, tmp_path):
    dump = _write(world, tmp_path / "hidden_states", aux=False, key=False)
    result = _run("eval", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "data_0.ckpt: an EAGLE-1/EAGLE-2 training sample" in text, text
    assert "hint: generate EAGLE-3 hidden states" in text, text
    assert "SpecForge's script itself writes these files when run without --enable-aux-hidden-states" in text, text
