"""A user passes the training run's output folder as --model. Two layouts were not told which
save to serve:

- saves of one `model.pt` each (`epoch_0/ ... epoch_10/`, a hand-written loop's torch.save,
  which vLLM and SGLang serve: checkpoint.engine_served_pickle) and no config.json: the refusal
  said only "<out>/config.json: not found", as if the folder held nothing;
- HF Trainer's `checkpoint-N/` saves whose newest was cut after its config.json (a job killed
  while writing the weights): the hint offered that newest save, which is refused again as "no
  model.safetensors" when passed (and which vLLM and SGLang cannot load either).

Now the first names the saves and the newest of them, and the second offers the newest save
holding a weight file the engines load, saying which newer ones hold none. The draft is saved
by speculators 0.9.0."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.checkpoint import open_draft  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import world  # noqa: E402,F401


def _refusal(path) -> CheckpointError:
    with pytest.raises(CheckpointError) as caught:
        open_draft(path)
    return caught.value


def _state(world) -> dict:
    return dict(load_file(str(world / "draft" / "model.safetensors")))


def test_epoch_saves_of_one_model_pt_are_named_with_the_newest(tmp_path, world):
    out = tmp_path / "out"
    for epoch in (0, 1, 2, 10):
        (out / f"epoch_{epoch}").mkdir(parents=True)
        torch.save(_state(world), out / f"epoch_{epoch}" / "model.pt")
    refused = _refusal(out)
    assert refused.message == (f"{out}: no config.json; the folder holds training saves with "
                               "weights but no config below it: epoch_0, epoch_1, epoch_2, epoch_10")
    assert refused.hint.startswith(f"pass one of them (the newest: {out / 'epoch_10'}) as --model "
                                   "once it has the config: put the draft config the run trained "
                                   "with")
    # with the config beside it, the newest save is what the drafter reads (and the engines serve)
    shutil.copy(world / "draft" / "config.json", out / "epoch_10" / "config.json")
    assert open_draft(out / "epoch_10").tensors.engine_pickle == out / "epoch_10" / "model.pt"


def test_a_trainer_state_alone_is_no_save(tmp_path, world):
    # an optimizer's torch.save file holds no weights: the folder is not offered as a save
    out = tmp_path / "out"
    (out / "epoch_0").mkdir(parents=True)
    torch.save({"state": {}}, out / "epoch_0" / "optimizer.pt")
    assert _refusal(out).message == f"{out / 'config.json'}: not found"


def test_the_newest_save_cut_before_its_weights_is_not_offered(tmp_path, world):
    out = tmp_path / "out"
    for step in (100, 200, 300):
        shutil.copytree(world / "draft", out / f"checkpoint-{step}")
    refused = _refusal(out)
    assert refused.hint == f"pass one checkpoint directory as --model, e.g. {out / 'checkpoint-300'}"
    (out / "checkpoint-300" / "model.safetensors").unlink()
    refused = _refusal(out)
    assert refused.message == (f"{out / 'config.json'}: not found; the directory holds checkpoints "
                               "below it: checkpoint-100, checkpoint-200, checkpoint-300")
    assert refused.hint == (f"pass one checkpoint directory as --model, e.g. {out / 'checkpoint-200'} "
                            "(the newest with a weight file vLLM and SGLang load: checkpoint-300 "
                            "holds none)")
    assert open_draft(out / "checkpoint-200").path == out / "checkpoint-200"
    # a newest save whose weights are FSDP shards only is passed over the same way
    (out / "checkpoint-200" / "model.safetensors").unlink()
    (out / "checkpoint-200" / "pytorch_model_fsdp_0").mkdir()
    (out / "checkpoint-200" / "pytorch_model_fsdp_0" / "__0_0.distcp").write_bytes(b"\0" * 16)
    assert _refusal(out).hint == (
        f"pass one checkpoint directory as --model, e.g. {out / 'checkpoint-100'} (the newest with "
        "a weight file vLLM and SGLang load: checkpoint-200, checkpoint-300 hold none)")
