"""The target's side of two weight-file notes that were said for the draft only.

- A target whose shards lost their index (`scp model-*.safetensors`): vLLM and SGLang load
  every *.safetensors, as the drafter read them, but speculators' load_verifier_weights
  (utils/loading.py load_model_layers: the index, else model.safetensors) finds nothing, so
  training a draft on this target fails. Before: the draft got the note, the target none.
- A target holding a single model.safetensors beside a live index and its shards: the note
  said "transformers and speculators load model.safetensors", but speculators' verifier
  loader opens the index first, as the engines do. Only transformers reads the single file.

Every save is transformers' or speculators' own; the reference library is run to show what
it reads."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()


world = informative_world("h24_review_target", seed=5)


def _sharded_target(world: Path, out: Path) -> Path:
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(str(world / "target")).save_pretrained(
        out, max_shard_size="20KB")
    assert (out / "model.safetensors.index.json").exists()
    return out


def _eval(world: Path, target: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(world / "data"), "--target", str(target),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_target_whose_shards_lost_their_index_is_named(world, tmp_path):
    from speculators.utils.loading import load_model_layers

    target = _sharded_target(world, tmp_path / "target")
    (target / "model.safetensors.index.json").unlink()
    with pytest.raises(FileNotFoundError, match="model.safetensors"):  # what training meets
        load_model_layers(["embed_tokens.weight", "lm_head.weight"], str(target))
    plain, odd = _eval(world, world / "target"), _eval(world, target)
    assert odd["counts"] == plain["counts"]  # read as the engines read them
    notes = [n for n in odd["notes"] if "with neither model.safetensors" in n]
    assert len(notes) == 1 and notes[0].startswith("the target's weights are in model-0000")
    assert "speculators' verifier-weight loader" in notes[0]
    assert notes[0].endswith("copy model.safetensors.index.json beside the shards")
    assert not [n for n in plain["notes"] if "with neither model.safetensors" in n]


def test_a_targets_single_file_beside_shards_names_who_reads_which(world, tmp_path):
    from safetensors.torch import load_file, save_file
    from speculators.utils.loading import load_model_layers

    target = _sharded_target(world, tmp_path / "target")
    single = load_file(str(world / "target" / "model.safetensors"))
    single["lm_head.weight"] = single["lm_head.weight"] * 0.5  # another save's head
    save_file(single, str(target / "model.safetensors"))
    # speculators' verifier loader reads the shards, not the single file
    read = load_model_layers(["lm_head.weight"], str(target))["lm_head.weight"]
    shards = load_file(str(world / "target" / "model.safetensors"))["lm_head.weight"]
    assert torch.equal(read, shards)
    notes = [n for n in _eval(world, target)["notes"] if "is beside" in n]
    assert len(notes) == 1
    assert "transformers and speculators load" not in notes[0]
    assert "speculators' verifier-weight loader reads the index first" in notes[0]
