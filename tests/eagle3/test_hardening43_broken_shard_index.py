"""A sharded draft whose model.safetensors.index.json the engines cannot use: vLLM and SGLang
read `json.load(f)["weight_map"]` before loading any shard (model_loader/weight_utils.py
filter_duplicate_safetensors_files; sglang 0.5.12 wheel and vllm read), so invalid JSON or an
index without weight_map stops the server. The probe's listing fell back to every
*.safetensors file and the configs step compared the config with them without a word; it
now says the index is broken. The draft is speculators' own save, split into two shards."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

_SHARDS = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")


def _sharded(tmp_path, world, index_text):
    """A copy of the world whose draft is split into two shards beside `index_text(index)`."""
    from safetensors.torch import load_file, save_file

    root = tmp_path / "sharded"
    shutil.copytree(world, root)
    draft = root / "draft"
    tensors = load_file(str(draft / "model.safetensors"))
    (draft / "model.safetensors").unlink()
    names = sorted(tensors)
    halves = (names[:len(names) // 2], names[len(names) // 2:])
    for shard, half in zip(_SHARDS, halves):
        save_file({name: tensors[name] for name in half}, str(draft / shard), metadata={"format": "pt"})
    index = {"metadata": {"total_size": 0},
             "weight_map": {name: shard for shard, half in zip(_SHARDS, halves) for name in half}}
    (draft / "model.safetensors.index.json").write_text(index_text(index))
    return root


def test_a_sound_index_has_no_finding(tmp_path, world):
    assert _configs(_sharded(tmp_path, world, json.dumps), VLLM) == []


def test_an_index_that_is_not_json_is_said(tmp_path, world):
    root = _sharded(tmp_path, world, lambda index: json.dumps(index)[:-5])
    findings = _configs(root, VLLM)
    assert [(f.code, f.severity) for f in findings] == [("SD004", "info")]
    line = findings[0].evidence[0]
    assert line.startswith(f"{root / 'draft' / 'model.safetensors.index.json'}: not valid JSON (")
    assert line.endswith("the engine refuses it too: fix that line (a trailing comma or a comment is "
                         "the usual cause); the draft config was compared with every *.safetensors "
                         "file in the folder instead")


def test_an_index_without_weight_map_is_said(tmp_path, world):
    root = _sharded(tmp_path, world, lambda index: json.dumps({"metadata": index["metadata"]}))
    findings = _configs(root, VLLM)
    assert [(f.code, f.severity) for f in findings] == [("SD004", "info")]
    assert findings[0].evidence == [
        f"{root / 'draft' / 'model.safetensors.index.json'}: no \"weight_map\" object (the shard file "
        "of each tensor); vLLM and SGLang read it before loading any shard and do not start "
        "(KeyError); the draft config was compared with every *.safetensors file in the folder instead"]
