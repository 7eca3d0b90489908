"""A draft saved in two shards (with model.safetensors.index.json, as save_pretrained shards
a large draft) whose first shard was cut short inside its header (a copy or download that
stopped): the probe's tensor listing passed the file by, so the configs step compared the
config with the second shard's tensors alone and said nothing, a clean line for a draft
vLLM and SGLang cannot load. It now says, as for a shard the index names that is not here,
that the config was not compared with the weights and why (an SD710 error since
round 70: the engines cannot load it). The draft is saved by
speculators 0.9.0, then split and cut."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

FIRST, SECOND = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"


def _sharded(tmp_path, world):
    from safetensors.torch import load_file, save_file

    root = tmp_path / "sharded"
    shutil.copytree(world, root)
    draft = root / "draft"
    tensors = load_file(str(draft / "model.safetensors"))
    names = sorted(tensors)  # fc.weight, embed_tokens and layer 0's MLP in the first
    split = {FIRST: names[:8], SECOND: names[8:]}
    for file, kept in split.items():
        save_file({name: tensors[name] for name in kept}, str(draft / file), metadata={"format": "pt"})
    (draft / "model.safetensors").unlink()
    weight_map = {name: file for file, kept in split.items() for name in kept}
    (draft / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": 0}, "weight_map": weight_map}))
    return root


def test_the_sharded_draft_as_saved_is_compared_and_clean(tmp_path, world):
    root = _sharded(tmp_path, world)
    assert [f.code for f in _configs(root, VLLM)] == []


def test_a_shard_cut_inside_its_header_is_said_not_passed_by(tmp_path, world):
    root = _sharded(tmp_path, world)
    shard = root / "draft" / FIRST
    shard.write_bytes(shard.read_bytes()[:100])
    found = _configs(root, VLLM)
    # an error since round 70: the engines cannot load the draft (safe_open fails on the
    # header), so a "not checked" info line let the run pass (test_hardening70_unreadable_weights_error)
    assert [(f.code, f.severity) for f in found] == [("SD710", "error")]
    assert found[0].evidence == [
        f"the header of {FIRST} cannot be read (a copy or download cut short, a git-lfs pointer, "
        "or not a safetensors file): vLLM and SGLang open every weight file with safetensors' "
        "safe_open and do not start (\"Error while deserializing header\"); the draft config's "
        "shape keys and norm flags were not compared with its weights"]
    assert found[0].facts["unreadable_weight_files"] == [FIRST]
