"""A draft directory holding both a sharded save (model.safetensors.index.json and its
shards) and a newer single model.safetensors: what a retrained draft uploaded unsharded into
a Hub repo that held shards leaves (huggingface_hub's upload_folder deletes nothing unless
told), or a copy of one save over another.

transformers' from_pretrained, so speculators, loads model.safetensors; vLLM and SGLang load
only the files the index names (weight_utils.py filter_duplicate_safetensors_files). The
drafter read the shards (what the engines serve) and said nothing, so the accuracy of an
older run was reported for the draft speculators evaluates. It now says both are there,
which it read, and that they hold different weights. Both saves are speculators' own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.eagle3._world import eval_json, informative_world, torch  # skips without torch/speculators


world = informative_world("h24_shadowed", seed=5)


def _both_saves(world: Path, out: Path, older: str) -> Path:
    """An earlier run's sharded save, then the trained draft's single file copied over it."""
    from speculators.models.eagle3 import Eagle3DraftModel

    model = Eagle3DraftModel.from_pretrained(str(world / "draft"))
    if older == "other_run":
        with torch.no_grad():
            for name, param in model.named_parameters():
                if "embed_tokens" not in name and "lm_head" not in name:
                    param.mul_(0.5)  # another run's trained weights (frozen ones shared)
    model.save_pretrained(out, max_shard_size="20KB")
    assert (out / "model.safetensors.index.json").exists()
    shutil.copy(world / "draft" / "model.safetensors", out / "model.safetensors")
    return out


@pytest.mark.parametrize("older", ["other_run", "same_weights"])
def test_a_single_file_beside_live_shards_is_named(world, tmp_path, older):
    from speculators.models.eagle3 import Eagle3DraftModel

    model = _both_saves(world, tmp_path / older, older)
    reference = Eagle3DraftModel.from_pretrained(str(model))  # reads model.safetensors
    trained = Eagle3DraftModel.from_pretrained(str(world / "draft"))
    assert torch.equal(reference.fc.weight, trained.fc.weight)
    result = eval_json(world, model)
    notes = [n for n in result["notes"] if "is beside" in n]
    assert len(notes) == 1
    assert "transformers and speculators load model.safetensors, vLLM and SGLang only the " \
           "shards the index names" in notes[0]
    assert ("they hold different weights" in notes[0]) == (older == "other_run")
    plain = eval_json(world, world / "draft")
    assert (result["counts"] == plain["counts"]) == (older == "same_weights")
    assert not [n for n in plain["notes"] if "is beside" in n]
