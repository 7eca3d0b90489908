"""A draft folder that holds no weight file vLLM or SGLang load: a save that wrote only
config.json, the weights kept as a `.pth` or a Lightning `epoch_3.ckpt`, or FSDP's sharded save
(torch.distributed.checkpoint `__0_0.distcp` files, in accelerate's `pytorch_model_fsdp_0/`).
The engines stop with "Cannot find any model weights with <draft dir>" (vLLM 0.34.0
model_loader/default_loader.py _prepare_weights, SGLang 0.5.23 model_loader/loader.py).

Before: `run perf_regression` said "PASSED: 0 error(s)" over such a draft (the configs step
compared nothing, the vocab and eval probes failed as SD003 warnings), and `drafter vocab` said
only "no model.safetensors, *.safetensors or pytorch_model.bin" for an empty folder or DCP
shards, with no word of what the engines load or how to merge the shards. The configs step now
gives SD710 ("The draft folder holds no weight file the engines load"), and the refusal names
the shards and the merge. The draft is saved by speculators 0.9.0, then damaged."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import load_file  # noqa: E402

from spec_debug.eagle3.__main__ import main as probe_main  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401


@pytest.fixture
def root(tmp_path, world):
    shutil.copytree(world / "target", tmp_path / "target")
    shutil.copytree(world / "draft", tmp_path / "draft")
    return tmp_path


def _weights(root) -> dict:
    path = root / "draft" / "model.safetensors"
    state = {name: t.clone() for name, t in load_file(str(path)).items()}
    path.unlink()
    return state


def _save_dcp(state: dict, folder) -> None:
    """What accelerate's FSDP save_state writes with SHARDED_STATE_DICT (fsdp_utils.py
    save_fsdp_model): the model's state dict under "model", as DCP shards in one folder."""
    import warnings

    import torch.distributed.checkpoint as dcp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "assuming the intent is to save in a single process"
        dcp.save({"model": state}, checkpoint_id=str(folder))


def _vocab(root, capsys) -> dict:
    """`drafter vocab` as the vocab_maps probe runs it on the host: one JSON document."""
    capsys.readouterr()
    code = probe_main(["vocab", "--model", str(root / "draft"), "--target", str(root / "target")])
    out = json.loads(capsys.readouterr().out)
    assert code == 2, out
    return out


def _sd710(root) -> list:
    found = _configs(root, VLLM)
    return [f for f in found if f.code == "SD710"]


def test_an_empty_draft_folder_is_sd710_and_says_what_the_engines_load(root, capsys):
    assert _sd710(root) == []
    _weights(root)
    [finding] = _sd710(root)
    assert finding.severity == "error"
    assert finding.title == "The draft folder holds no weight file the engines load"
    assert finding.evidence == [
        f"{root / 'draft'}: no model.safetensors, *.safetensors or pytorch_model.bin; vLLM and "
        "SGLang find no weights here either (they load *.safetensors, *.bin or *.pt files only: "
        "\"Cannot find any model weights\")"]
    assert _vocab(root, capsys)["error"] == finding.evidence[0]


@pytest.mark.parametrize("name", ["model.pth", "epoch_3.ckpt", "consolidated.00.pth"])
def test_weights_kept_under_a_name_no_engine_loads_are_sd710(root, name):
    torch.save(_weights(root), root / "draft" / name)
    [finding] = _sd710(root)
    assert f"only torch.save file(s) under other names: {name}" in finding.evidence[0]
    assert "vLLM and SGLang find no weights here either" in finding.evidence[0]
    assert finding.remediation.startswith("load the state dict and save it as model.safetensors")


def test_fsdp_dcp_shards_are_named_with_the_merge_that_serves_them(root, capsys):
    draft = root / "draft"
    _save_dcp(_weights(root), draft / "pytorch_model_fsdp_0")
    _save_dcp({"step": torch.zeros(1)}, draft / "optimizer_0")
    [finding] = _sd710(root)
    assert finding.evidence[0].endswith(
        "; only torch.distributed.checkpoint shards (pytorch_model_fsdp_0/, optimizer_0/: a "
        "sharded FSDP save), which vLLM and SGLang do not load either (they load "
        "*.safetensors, *.bin or *.pt files only)")
    assert finding.remediation.startswith(
        f"merge them into one file beside config.json: `accelerate merge-weights "
        f"{draft / 'pytorch_model_fsdp_0'} {draft}` writes model.safetensors")
    out = _vocab(root, capsys)
    assert out["error"] == finding.evidence[0]
    assert f"dcp_to_torch {draft / 'pytorch_model_fsdp_0'} draft.pt" in out["hint"]


def test_dcp_shards_in_the_draft_folder_itself(root):
    draft = root / "draft"
    _save_dcp(_weights(root), draft)
    [finding] = _sd710(root)
    assert "only torch.distributed.checkpoint shards (*.distcp: a sharded FSDP save)" in finding.evidence[0]
    assert f"accelerate merge-weights {draft} {draft}" in finding.remediation


def test_only_an_optimizers_shards_are_not_offered_as_weights(root):
    _weights(root)
    _save_dcp({"step": torch.zeros(1)}, root / "draft" / "optimizer_0")
    [finding] = _sd710(root)
    assert ("only an optimizer's torch.distributed.checkpoint shards (optimizer_0/), saved beside "
            "a checkpoint's weights, not weights") in finding.evidence[0]
    assert "merge" not in finding.remediation


@pytest.mark.parametrize("name", ["model.pt", "pytorch_model.bin", "model.bin"])
def test_a_pickle_the_engines_serve_is_no_sd710(root, name):
    # vLLM and SGLang load every *.bin, else every *.pt, of a folder with no *.safetensors
    torch.save(_weights(root), root / "draft" / name)
    assert _sd710(root) == []


def test_only_files_the_engines_skip_are_sd710(root):
    # optimizer.pt and scheduler.pt are skipped by name (weight_utils.py
    # filter_files_not_needed_for_inference): nothing is left to load
    _weights(root)
    torch.save({"state": {}}, root / "draft" / "optimizer.pt")
    torch.save({"last_epoch": 3}, root / "draft" / "scheduler.pt")
    [finding] = _sd710(root)
    assert "optimizer.pt, scheduler.pt" in finding.evidence[0]


def test_the_shard_folder_passed_itself_is_named_with_the_merge_into_the_draft(root):
    """accelerate's pytorch_model_fsdp_0/ passed as --model (it holds no config.json). Before:
    "<dir>/config.json: not found", with no word of the shards."""
    from spec_debug.eagle3.checkpoint import open_draft
    from spec_debug.eagle3.config import CheckpointError

    draft = root / "draft"
    shards = draft / "pytorch_model_fsdp_0"
    _save_dcp(_weights(root), shards)
    _save_dcp({"step": torch.zeros(1)}, draft / "optimizer_0")
    with pytest.raises(CheckpointError) as caught:
        open_draft(shards)
    assert caught.value.message == (
        f"{shards}: no config.json; only torch.distributed.checkpoint shards (*.distcp: a "
        "sharded FSDP save), which vLLM and SGLang do not load either (they load *.safetensors, "
        "*.bin or *.pt files only)")
    assert caught.value.hint.startswith(
        f"merge them into one file beside config.json: `accelerate merge-weights {shards} {draft}` "
        "writes model.safetensors")
    assert caught.value.hint.endswith(", and pass that folder as --model")
    with pytest.raises(CheckpointError) as caught:
        open_draft(draft / "optimizer_0")
    assert caught.value.message == (
        f"{draft / 'optimizer_0'}: no config.json; only an optimizer's torch.distributed.checkpoint "
        "shards (*.distcp), saved beside a checkpoint's weights, not weights: the weights were not "
        "saved or not copied here")
    assert caught.value.hint == "pass the draft's folder (config.json and its weights) as --model"
