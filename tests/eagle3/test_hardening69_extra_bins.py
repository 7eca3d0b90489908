"""A draft read from pytorch_model.bin beside other *.bin files. transformers' from_pretrained
(so speculators, and the drafter evaluation) reads pytorch_model.bin alone; vLLM 0.34.0 and
SGLang 0.5.23, with no *.safetensors in the folder, load EVERY *.bin there, dropping only
training_args.bin and optimizer.bin (vllm/model_executor/model_loader/default_loader.py
_prepare_weights, weight_utils.py filter_files_not_needed_for_inference; the same code in
sglang/srt/model_loader/loader.py and weight_utils.py). So an older export left beside it
(model_old.bin) sets the served tensors it shares with pytorch_model.bin in file order, and
accelerate's save_state(safe_serialization=False) files (scheduler.bin, sampler.bin) are read
as weights. Before: no word; the numbers were those of pytorch_model.bin alone."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import json  # noqa: E402

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h69_bins")
    save_verifier_and_draft(root)
    state = load_file(str(root / "draft" / "model.safetensors"))
    (root / "draft" / "model.safetensors").unlink()
    torch.save(state, root / "draft" / "pytorch_model.bin")
    return root


@pytest.fixture
def draft(base, tmp_path) -> Path:
    shutil.copytree(base, tmp_path / "case")
    return tmp_path / "case" / "draft"


def _notes(draft: Path) -> list[str]:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                         str(draft.parent / "target"), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["notes"]


def _about_bins(notes: list[str]) -> list[str]:
    return [note for note in notes if "every *.bin" in note]


def test_an_older_export_beside_pytorch_model_bin_is_named(draft):
    state = torch.load(draft / "pytorch_model.bin", weights_only=True)
    state["fc.weight"] = state["fc.weight"] * 0.5
    torch.save(state, draft / "model_old.bin")
    assert _about_bins(_notes(draft)) == [
        f"{draft} holds model_old.bin beside pytorch_model.bin, which was read (as "
        "transformers, so speculators, reads it): vLLM and SGLang load every *.bin in a "
        "folder with no *.safetensors, whatever an index names (they skip only "
        "training_args.bin and optimizer.bin), "
        "so they load model_old.bin as weights too, and a tensor stored in both is set from "
        "the file they read last: move model_old.bin out of the draft's folder"]


def test_accelerate_state_files_are_named(draft):
    torch.save({"last_epoch": 3}, draft / "scheduler.bin")
    torch.save({"epoch": 3}, draft / "sampler.bin")
    torch.save({"state": {}}, draft / "optimizer.bin")
    torch.save({"output_dir": "x"}, draft / "training_args.bin")
    notes = _about_bins(_notes(draft))
    assert len(notes) == 1, notes
    assert notes[0].startswith(f"{draft} holds sampler.bin, scheduler.bin beside "
                               "pytorch_model.bin, which was read"), notes
    assert "move sampler.bin, scheduler.bin out of the draft's folder" in notes[0]


def test_the_files_the_engines_skip_are_not_named(draft):
    torch.save({"state": {}}, draft / "optimizer.bin")
    torch.save({"output_dir": "x"}, draft / "training_args.bin")
    torch.save({"state": {}}, draft / "optimizer_state_dict.pt")  # *.bin matched first
    assert _about_bins(_notes(draft)) == []


def test_a_stale_shard_beside_an_index_is_named(draft):
    """A sharded pickle save (pytorch_model.bin.index.json and the two shards it names) over
    a folder that held a three-shard save: the third old shard stays. The engines filter only
    safetensors files by an index."""
    state = torch.load(draft / "pytorch_model.bin", weights_only=True)
    (draft / "pytorch_model.bin").unlink()
    names = sorted(state)
    halves = {"pytorch_model-00001-of-00002.bin": names[: len(names) // 2],
              "pytorch_model-00002-of-00002.bin": names[len(names) // 2:]}
    for shard, keys in halves.items():
        torch.save({k: state[k] for k in keys}, draft / shard)
    (draft / "pytorch_model.bin.index.json").write_text(json.dumps(
        {"metadata": {}, "weight_map": {k: shard for shard, keys in halves.items() for k in keys}}))
    torch.save({"fc.weight": state["fc.weight"] * 0.5}, draft / "pytorch_model-00003-of-00003.bin")
    assert _about_bins(_notes(draft)) == [
        f"{draft} holds pytorch_model-00003-of-00003.bin beside the 2 shard(s) "
        "pytorch_model.bin.index.json names, which were read (as transformers, so "
        "speculators, reads them): vLLM and SGLang load every *.bin in a folder with no "
        "*.safetensors, whatever an index names (they skip only training_args.bin and "
        "optimizer.bin), so they load pytorch_model-00003-of-00003.bin as weights too, and a "
        "tensor stored in both is set from the file they read last: move "
        "pytorch_model-00003-of-00003.bin out of the draft's folder"]
