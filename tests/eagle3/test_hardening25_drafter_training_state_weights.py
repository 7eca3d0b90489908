"""A checkpoint folder whose only torch file is a training_state.pt that holds weights.

SpecForge's training_state.pt holds no weights (test_hardening24_reviewdrafter_specforge_state),
but other training scripts save the model's state dict into their training_state.pt beside the
optimizer's state and argparse args ('model': unwrapped_model.state_dict()). Such a folder was
told "only a trainer's optimizer/scheduler state ... the weights were not saved": wrong when
the draft's weights are right there. The file is now read without running its pickle and the
line says which weights it holds (a draft's, or another model's) and how to save a draft's.
The weights are speculators' own draft and the HF Llama verifier it was built on."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3 import trainer_state  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h25_training_state")
    save_verifier_and_draft(root)
    return root


def _epoch(world: Path, out: Path, weights: str | None) -> Path:
    """A trainer's epoch folder: the draft's config.json and a training_state.pt holding
    epoch, args, the optimizer's state and, under 'model', the named weights."""
    out.mkdir()
    (out / "config.json").write_text((world / "draft" / "config.json").read_text())
    layer = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(layer.parameters())
    layer(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    state = {"epoch": 2, "args": argparse.Namespace(lr=1e-4), "optimizer": optimizer.state_dict()}
    if weights:
        state["model"] = load_file(str(world / weights / "model.safetensors"))
    torch.save(state, out / "training_state.pt")
    return out


def _vocab(model: Path) -> str:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(model)])
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    return " ".join(result.output.split())


def test_a_drafts_weights_in_training_state_are_named_with_the_fix(world, tmp_path):
    output = _vocab(_epoch(world, tmp_path / "epoch_2", "draft"))
    assert "training_state.pt holds an EAGLE-3 draft's weights under ['model']" in output
    assert "fc.weight" in output and "the weights were not saved" not in output
    assert ("safetensors.torch.save_file(torch.load('training_state.pt', weights_only=False)"
            "['model'], 'model.safetensors')") in output


def test_a_targets_weights_in_training_state_are_not_a_draft(world, tmp_path):
    output = _vocab(_epoch(world, tmp_path / "epoch_2", "target"))
    assert "holds weights under ['model']" in output and "not an EAGLE-3 draft's" in output


def test_training_state_without_weights_keeps_the_missing_weights_line(world, tmp_path):
    output = _vocab(_epoch(world, tmp_path / "epoch_2", None))
    assert "the weights were not saved or not copied here" in output


def test_reading_it_builds_none_of_the_objects_it_names(world, tmp_path):
    path = _epoch(world, tmp_path / "epoch_2", "draft") / "training_state.pt"
    structure = trainer_state.read_structure(path)
    assert not isinstance(structure["args"], argparse.Namespace)  # an inert placeholder
    shapes = dict(trainer_state.state_dicts(structure))["['model']"]
    assert "fc.weight" in shapes and "d2t" in shapes
