"""--model naming the save folder of a speculators training run of ten epochs: the trainer
writes <save_path>/<epoch>/, links checkpoint_best to its best epoch and epoch<e>_step<s> to
each epoch (speculators train/checkpointer.py update_best_symlink). The line listed the
first five and the last checkpoint, so checkpoint_best was cut and the hint named the last
epoch's link (epoch9_step1000) instead of the run's best. Now the line shows the links with
their targets and keeps checkpoint_best, which the hint names."""

from __future__ import annotations

import json
import os

import pytest

from spec_debug.eagle3.config import CheckpointError, require_config


def test_the_best_of_ten_epochs_is_named_and_suggested(tmp_path):
    for epoch in range(10):
        (tmp_path / str(epoch)).mkdir()
        (tmp_path / str(epoch) / "config.json").write_text(json.dumps({}))
        os.symlink(str(epoch), tmp_path / f"epoch{epoch}_step{100 * (epoch + 1)}")
    os.symlink("3", tmp_path / "checkpoint_best")
    with pytest.raises(CheckpointError) as caught:
        require_config(tmp_path, "--model")
    assert caught.value.message == (
        f"{tmp_path / 'config.json'}: not found; the directory holds checkpoints below it: "
        "0, 1, 2, 3, epoch9_step1000 -> 9, checkpoint_best -> 3 (and 15 more)")
    assert caught.value.hint == f"pass one checkpoint directory as --model, e.g. {tmp_path / 'checkpoint_best'}"
