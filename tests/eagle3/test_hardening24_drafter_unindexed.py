"""A draft whose weights sit in *.safetensors files under other names than
model.safetensors, without model.safetensors.index.json: shards whose index was not copied
(`scp model-*.safetensors`), or a single file renamed.

vLLM and SGLang load every *.safetensors of such a directory, so the drafter read them and
said nothing; but transformers' from_pretrained, so speculators' training and evaluation,
finds no weights there. It now says so, with the fix. Saves are speculators' own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.eagle3._world import eval_json, informative_world  # skips without torch/speculators


world = informative_world("h24_unindexed", seed=5)


def _draft(world: Path, out: Path, form: str) -> Path:
    from speculators.models.eagle3 import Eagle3DraftModel

    if form == "shards_without_index":
        Eagle3DraftModel.from_pretrained(str(world / "draft")).save_pretrained(
            out, max_shard_size="20KB")
        (out / "model.safetensors.index.json").unlink()
    else:  # renamed single file
        shutil.copytree(world / "draft", out)
        (out / "model.safetensors").rename(out / "eagle3.safetensors")
    return out


@pytest.mark.parametrize("form,fix", [
    ("shards_without_index", "copy model.safetensors.index.json beside the shards"),
    ("renamed", "rename the file to model.safetensors")])
def test_weights_transformers_cannot_find_are_named(world, tmp_path, form, fix):
    from speculators.models.eagle3 import Eagle3DraftModel

    model = _draft(world, tmp_path / form, form)
    with pytest.raises(OSError, match="model.safetensors"):  # the reference finds none
        Eagle3DraftModel.from_pretrained(str(model))
    plain, odd = eval_json(world, world / "draft"), eval_json(world, model)
    assert odd["counts"] == plain["counts"]  # read as the engines read them
    notes = [n for n in odd["notes"] if "with neither model.safetensors" in n]
    assert len(notes) == 1 and notes[0].endswith(fix)
    assert "transformers' from_pretrained (speculators' training and evaluation) finds no " \
           "weights" in notes[0]
    assert not [n for n in plain["notes"] if "with neither model.safetensors" in n]
