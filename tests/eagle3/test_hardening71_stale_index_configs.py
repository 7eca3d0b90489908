"""A speculators 0.9.0 draft saved sharded (save_pretrained(max_shard_size=...)), then saved
again whole into the same folder: transformers 5.19 removes the old shards but leaves
model.safetensors.index.json, which names only them (recorded below). vLLM and SGLang load only
the safetensors files an index names (model_loader/weight_utils.py
filter_duplicate_safetensors_files), find none, and stop with "Cannot find any model weights".

Before: the probes' listing read model.safetensors past the index and the configs step said
nothing (its missing-shard count skips an index none of whose shards is here); only `drafter
vocab`, which needs torch on the host, gave SD710. Now the configs step gives SD710 from the
listing, with the fix (delete the stale index)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.probes.hostfiles import list_weights  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401


@pytest.fixture(scope="module")
def resaved(tmp_path_factory, world):
    from speculators.models.eagle3 import Eagle3DraftModel

    root = tmp_path_factory.mktemp("resaved")
    shutil.copytree(world / "target", root / "target")
    model = Eagle3DraftModel.from_pretrained(str(world / "draft"))
    model.save_pretrained(root / "draft", max_shard_size="20KB")
    shards = sorted(p.name for p in (root / "draft").glob("model-*.safetensors"))
    assert len(shards) > 1
    model.save_pretrained(root / "draft")
    return root, shards


def test_the_sharded_save_is_clean(tmp_path, world):
    from speculators.models.eagle3 import Eagle3DraftModel

    root = tmp_path / "sharded"
    shutil.copytree(world / "target", root / "target")
    Eagle3DraftModel.from_pretrained(str(world / "draft")).save_pretrained(root / "draft", max_shard_size="20KB")
    assert [f.code for f in _configs(root, VLLM)] == []


def test_an_index_left_by_a_sharded_save_is_sd710(resaved):
    root, shards = resaved
    draft = root / "draft"
    # what transformers left: the whole file, and the index of shards that are gone
    assert sorted(p.name for p in draft.glob("*.safetensors")) == ["model.safetensors"]
    index = json.loads((draft / "model.safetensors.index.json").read_text())
    assert sorted(set(index["weight_map"].values())) == shards
    found = _configs(root, VLLM)
    assert [(f.code, f.severity) for f in found] == [("SD710", "error")]
    [finding] = found
    assert finding.title == "The draft folder holds no weight file the engines load"
    assert finding.evidence == [
        f"{draft / 'model.safetensors.index.json'} names no weight file that is here, and "
        "model.safetensors beside it is not named there: vLLM and SGLang load only the "
        f"safetensors files an index names, find none and stop (\"Cannot find any model weights "
        f"with {draft}\")"]
    assert finding.remediation == ("delete the stale index (or save the draft again into an "
                                   "empty folder); then start the server again")
    assert list_weights(draft).unindexed_files == ["model.safetensors"]


def test_deleting_the_index_clears_it(tmp_path, resaved):
    root = tmp_path / "fixed"
    shutil.copytree(resaved[0], root)
    (root / "draft" / "model.safetensors.index.json").unlink()
    assert [f.code for f in _configs(root, VLLM)] == []
