"""A checkpoint directory of speculators' trainer that holds the optimizer state but not the
weights: a copy of `<output>/<epoch>/` that took optimizer_state_dict.pt and config.json and
left model.safetensors behind (or a save cut off between the two).

speculators' Checkpointer (src/speculators/train/checkpointer.py SingleGPUCheckpointer)
writes save_pretrained's files and optimizer_state_dict.pt side by side. The drafter named
the optimizer state as a hand-saved state dict and told the user to convert it to
model.safetensors, which would fail: it is no weights. It now says it is a trainer's state
and that the weights are missing. The whole epoch directory, saved by the Checkpointer in
bfloat16, still loads and scores."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()


world = informative_world("h24_trainer_state", seed=5)


@pytest.fixture(scope="module")
def epoch(world, tmp_path_factory) -> Path:
    """<output>/0 as speculators' Checkpointer saves it after one optimizer step."""
    from speculators.models.eagle3 import Eagle3DraftModel
    from speculators.train.checkpointer import SingleGPUCheckpointer

    model = Eagle3DraftModel.from_pretrained(str(world / "draft"))
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=0.0)
    sum(p.float().sum() for p in model.parameters() if p.requires_grad).backward()
    optimizer.step()
    output = tmp_path_factory.mktemp("h24_trainer_output")
    SingleGPUCheckpointer(output).save_checkpoint(model, optimizer, 0)
    assert (output / "0" / "optimizer_state_dict.pt").is_file()
    return output / "0"


def _eval(world: Path, model: Path):
    return runner.invoke(drafter_app, ["eval", "--model", str(model), "--data",
                                       str(world / "data"), "--target", str(world / "target"),
                                       "--steps", "2", "--json"])


def test_the_epoch_directory_loads_and_scores(world, epoch):
    result = _eval(world, epoch)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["full_accuracy"][0] > 0.5


def test_the_optimizer_state_without_weights_is_named_as_such(world, epoch, tmp_path):
    copy = tmp_path / "0"
    copy.mkdir()
    for name in ("config.json", "optimizer_state_dict.pt"):
        shutil.copy(epoch / name, copy / name)
    result = _eval(world, copy)
    assert result.exit_code != 0
    assert "only a trainer's optimizer/scheduler state (optimizer_state_dict.pt)" in result.output
    assert "the weights were not saved or not copied here" in result.output
    assert "save it as model.safetensors" not in result.output  # not weights to convert
    assert "Traceback" not in result.output
