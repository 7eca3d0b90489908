"""SpecForge's checkpoint directory holding its training state but not the weights.

SpecForge's scripts/train_eagle3.py save_checkpoints writes
`<output>/epoch_<e>_step_<s>/training_state.pt` (epoch, global_step, the argparse args and
the optimizer's state) and then save_pretrained's config.json and model.safetensors. A copy
that took training_state.pt and config.json but not the weights was named as "torch.save
file(s) under other names: training_state.pt" with the hint to convert it to
model.safetensors, which fails: it holds no weights. The same fault speculators'
optimizer_state_dict.pt had (test_hardening24_drafter_trainer_state); it is now named as a
trainer's state, weights missing."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import AUX, DV, save_verifier_and_draft  # noqa: E402

runner = CliRunner()


def _specforge_epoch(root: Path) -> Path:
    """epoch_0_step_5 as SpecForge saves it, less model.safetensors."""
    save_verifier_and_draft(root)
    config = json.loads((root / "draft" / "config.json").read_text())
    flat = dict(config["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=DV, eagle_config={"eagle_aux_hidden_state_layer_ids": AUX})
    epoch = root / "outputs" / "epoch_0_step_5"
    epoch.mkdir(parents=True)
    (epoch / "config.json").write_text(json.dumps(flat))
    layer = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(layer.parameters(), lr=1e-4)
    layer(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
    torch.save({"epoch": 0, "global_step": 5,
                "args": argparse.Namespace(output_dir=str(root / "outputs"), ttt_length=7),
                "optimizer_state_dict": optimizer.state_dict(),
                "scheduler_state_dict": scheduler.state_dict()},
               epoch / "training_state.pt")
    return epoch


def test_specforge_training_state_without_weights_is_named_as_such(tmp_path):
    epoch = _specforge_epoch(tmp_path)
    result = runner.invoke(drafter_app, ["vocab", "--model", str(epoch),
                                         "--target", str(tmp_path / "target")])
    assert result.exit_code != 0
    assert "only a trainer's optimizer/scheduler state (training_state.pt)" in result.output
    assert "the weights were not saved or not copied here" in result.output
    assert "save it as model.safetensors" not in result.output  # not weights to convert
    assert "Traceback" not in result.output
