"""The setup the drafter tests that run `spec-debug drafter` on a world speculators saved share:
skip without torch/speculators, no Hub lookups, a module-scoped world of
speculators_world.save_informative_world (built once per process and copied, so each module
may change its own copy), and the eval command's JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

runner = CliRunner()


def informative_world(name: str, seed: int):
    """A module-scoped `world` fixture: target/, draft/ and data/ under a folder named name."""
    @pytest.fixture(scope="module")
    def world(tmp_path_factory) -> Path:
        return save_informative_world(tmp_path_factory.mktemp(name), seed=seed)
    return world


def eval_json(world: Path, model: Path, *, target: Path | None = None, steps: int = 2) -> dict:
    """`drafter eval --json` of model on world's data and target; it must succeed."""
    result = runner.invoke(drafter_app, ["eval", "--model", str(model), "--data",
                                         str(world / "data"), "--target", str(target or world / "target"),
                                         "--steps", str(steps), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def padded_sample(path: Path, side: str, pad: int) -> tuple:
    """(token_ids, hidden_states, [T] attention mask) of a world's hs sample with pad zero
    rows (pad id 0) on side 'right' or 'left' ('none': as saved, every row kept)."""
    from safetensors.torch import load_file

    tensors = load_file(str(path))
    ids, states = tensors["token_ids"], tensors["hidden_states"]
    pad_ids = torch.zeros(pad, dtype=ids.dtype)
    pad_states = torch.zeros(pad, *states.shape[1:], dtype=states.dtype)
    if side == "right":
        ids, states = torch.cat([ids, pad_ids]), torch.cat([states, pad_states])
    elif side == "left":
        ids, states = torch.cat([pad_ids, ids]), torch.cat([pad_states, states])
    flat = torch.ones(ids.shape[0], dtype=torch.long)
    if side == "right":
        flat[-pad:] = 0
    elif side == "left":
        flat[:pad] = 0
    return ids, states, flat


def drafter_json(world: Path, data: Path, command: str = "eval") -> dict:
    """`drafter <command> --json` of world's draft and target on data (eval: 2 steps); it
    must succeed."""
    steps = ["--steps", "2"] if command == "eval" else []
    result = runner.invoke(drafter_app, [command, "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         *steps, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def drafter_error(world: Path, data: Path, command: str = "eval") -> str:
    """The error and hint of `drafter <command>` of world's draft and target on data, on one
    line; the command must refuse the data (exit 2)."""
    result = runner.invoke(drafter_app, [command, "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())
