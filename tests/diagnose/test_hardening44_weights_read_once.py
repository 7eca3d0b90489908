"""describe_model, which every model probe runs, read each safetensors header of a draft twice
(once for its tensor shapes, once more to name the files that cannot be read) and its
model.safetensors.index.json four times (the file list, the missing shards, the index check,
the file list again): on a checkpoint on NFS or a FUSE-mounted bucket each read is a round
trip. Now the folder's weights are listed in one pass, with the same findings."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from spec_debug.probes import hostfiles
from tests.eagle3.speculators_world import save_verifier_and_draft


def _sharded_draft(root: Path) -> Path:
    """speculators' saved draft, split into two shards under an index that also names a third
    shard the copy lost, and the second shard cut short inside its header."""
    save_verifier_and_draft(root)
    draft = root / "draft"
    tensors = load_file(draft / "model.safetensors")
    (draft / "model.safetensors").unlink()
    names = sorted(tensors)
    half = len(names) // 2
    save_file({n: tensors[n] for n in names[:half]}, draft / "model-00001-of-00003.safetensors")
    save_file({n: tensors[n] for n in names[half:]}, draft / "model-00002-of-00003.safetensors")
    second = draft / "model-00002-of-00003.safetensors"
    second.write_bytes(second.read_bytes()[:20])
    weight_map = {n: "model-00001-of-00003.safetensors" for n in names[:half]}
    weight_map |= {n: "model-00002-of-00003.safetensors" for n in names[half:]}
    weight_map["lm_head.extra"] = "model-00003-of-00003.safetensors"
    (draft / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    return draft


def test_each_header_and_the_index_are_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draft = _sharded_draft(tmp_path)
    first_shard = load_file(draft / "model-00001-of-00003.safetensors")
    headers, configs = Counter(), Counter()
    read_header, read_config = hostfiles.safetensors_header, hostfiles.config_and_problem

    def counted_header(path: Path):
        headers[path.name] += 1
        return read_header(path)

    def counted_config(directory: Path, name: str = "config.json"):
        configs[name] += 1
        return read_config(directory, name)

    monkeypatch.setattr(hostfiles, "safetensors_header", counted_header)
    monkeypatch.setattr(hostfiles, "config_and_problem", counted_config)
    info = hostfiles.describe_model(str(draft))

    assert sorted(info["tensors"]) == sorted(first_shard)
    assert info["missing_shards"] == ["model-00003-of-00003.safetensors"]
    assert info["unreadable_weight_files"] == ["model-00002-of-00003.safetensors"]
    assert "index_error" not in info
    assert headers == {"model-00001-of-00003.safetensors": 1, "model-00002-of-00003.safetensors": 1}
    assert configs["model.safetensors.index.json"] == 1
