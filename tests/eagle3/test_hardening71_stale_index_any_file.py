"""A model.safetensors.index.json none of whose shards is here, beside a weight file of another
name than model.safetensors: a speculators 0.9.0 draft saved sharded, then again whole into the
same folder (transformers removes the shards, not the index), and its model.safetensors renamed
to draft.safetensors. vLLM and SGLang keep only the files the index names, whatever their name
(vllm-project/vllm vllm/model_executor/model_loader/weight_utils.py
filter_duplicate_safetensors_files), find none and stop.

Before: the probes' listing called it the stale index it is (SD710 in the configs step), but the
drafter's stale_index counted only model.safetensors beside the index, so `drafter vocab` stopped
with "names shard(s) that are missing: copy every shard listed in the index" and the vocab step
failed as a step that could not run (SD003). Now the drafter reads the file past the stale index
and fails the same SD710 the configs step gives."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.eagle3.checkpoint import TensorStore, stale_index  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening71_stale_index_configs import resaved  # noqa: E402,F401


@pytest.fixture
def renamed(tmp_path, resaved):
    root = tmp_path / "renamed"
    shutil.copytree(resaved[0], root)
    (root / "draft" / "model.safetensors").rename(root / "draft" / "draft.safetensors")
    return root


def _vocab(root):
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    return vocab_step.check(context(vocab_step.parse(raw), VLLM))


def test_the_drafter_calls_the_index_stale_as_the_probes_do(renamed):
    draft = renamed / "draft"
    index = draft / "model.safetensors.index.json"
    assert stale_index(index, draft / "model.safetensors")
    store = TensorStore.open(draft)
    assert store.stale_index == index
    assert {info.file.name for info in store.infos.values()} == {"draft.safetensors"}
    # the configs step (the probes' listing) already said SD710
    assert [f.code for f in _configs(renamed, VLLM)] == ["SD710"]


def test_the_vocab_step_says_sd710_for_it(renamed):
    draft = renamed / "draft"
    found = _vocab(renamed)
    assert [(f.code, f.severity) for f in found] == [("SD710", "error")]
    assert found[0].evidence == [
        f"{draft / 'model.safetensors.index.json'} names no weight file that is here, and "
        f"{draft / 'draft.safetensors'} beside it holds the draft's weights: vLLM and SGLang load "
        "only the safetensors files an index names, find none and stop (\"Cannot find any model "
        "weights\"); delete the stale index (or save the draft again into an empty folder)"]


def test_an_index_whose_shards_are_here_is_not_stale_beside_another_file(tmp_path, world):
    """Mistral's consolidated.safetensors beside live shards: the index is used, not stale."""
    from speculators.models.eagle3 import Eagle3DraftModel

    draft = tmp_path / "draft"
    Eagle3DraftModel.from_pretrained(str(world / "draft")).save_pretrained(draft, max_shard_size="20KB")
    shutil.copy(world / "draft" / "model.safetensors", draft / "consolidated.safetensors")
    assert not stale_index(draft / "model.safetensors.index.json", draft / "model.safetensors")
    assert TensorStore.open(draft).stale_index is None
