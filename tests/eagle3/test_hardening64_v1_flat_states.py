"""A hand-made speculators v1 sample (``data_*.pt``) whose ``hidden_states`` is the layer
states concatenated into one [T, S x H] tensor, as SpecForge's aux_hidden_state holds them,
was refused as "from another target model": its width is S times the target's, which is what
a concatenation gives, and the safetensors path already says so ("flattened slots?")."""

from __future__ import annotations

import os
import re

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402

runner = CliRunner()


def _write(world, out, width_of) -> int:
    out.mkdir()
    slots = 0
    for i, path in enumerate(sorted(world.data.glob("hs_*.safetensors"))):
        sample = load_file(path)
        states = sample["hidden_states"]  # [T, S, H]
        slots = states.shape[1]
        torch.save({"input_ids": sample["token_ids"].long(), "hidden_states": width_of(states),
                    "loss_mask": [1] * states.shape[0]}, out / f"data_{i}.pt")
    return slots


def _error(world, data):
    result = runner.invoke(drafter_app, ["eval", "--model", str(world.draft), "--data", str(data),
                                         "--target", str(world.target), "--json"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output


def test_concatenated_layer_states_are_named_so(world, tmp_path):
    slots = _write(world, tmp_path / "flat", lambda s: s.reshape(s.shape[0], -1).contiguous())
    out = _error(world, tmp_path / "flat")
    hidden = load_file(next(world.data.glob("hs_*.safetensors")))["hidden_states"].shape[2]
    assert f"the hidden states are {slots * hidden} wide" in out
    assert re.search(rf"{slots} x {hidden}: the layer states concatenated", out), out
    assert "torch.stack" in out and "another target model" not in out


def test_a_width_that_is_no_multiple_still_says_another_target(world, tmp_path):
    _write(world, tmp_path / "odd", lambda s: s[:, 0, :-3].contiguous())
    out = _error(world, tmp_path / "odd")
    assert "another target model" in out and "concatenated" not in out
