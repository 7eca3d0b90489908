"""A draft saved sharded, then whole, into one folder (speculators' own save_pretrained):
transformers removes the old shards and keeps model.safetensors.index.json. vLLM and SGLang
keep only the safetensors files the index names (model_loader/weight_utils.py
filter_duplicate_safetensors_files) and stop with "Cannot find any model weights"
(_prepare_weights). `drafter vocab` passed it (exit 0, ok: true, only a note)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.diagnose.checks.vocab_maps import check_vocab_report  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()

world = informative_world("hardening68-stale-index", seed=68)


def _copy(tmp_path: Path, world: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _vocab(draft: Path, target: Path):
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target", str(target),
                                         "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def _resave_sharded_then_whole(draft: Path) -> None:
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(draft)
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel.from_pretrained(draft, config=config)
    model.save_pretrained(draft, max_shard_size="8KB")
    assert len(list(draft.glob("model-*-of-*.safetensors"))) > 1
    model.save_pretrained(draft)
    assert (draft / "model.safetensors.index.json").is_file()
    assert not list(draft.glob("model-*-of-*.safetensors"))


def test_stale_draft_index_fails_vocab_with_sd710(world, tmp_path):
    root = _copy(tmp_path, world)
    before = _vocab(root / "draft", root / "target")
    assert before.exit_code == 0 and json.loads(before.output)["ok"] is True, before.output
    _resave_sharded_then_whole(root / "draft")

    result = _vocab(root / "draft", root / "target")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["ok"] is False
    failed = [c for c in report["checks"] if not c["ok"]]
    assert [c["name"] for c in failed] == ["weight_files"]
    (issue,) = failed[0]["issues"]
    index = root / "draft" / "model.safetensors.index.json"
    assert (issue["code"], issue["kind"]) == ("SD710", "stale_index")
    assert issue["facts"] == {"index": str(index), "weights": "model.safetensors"}
    assert "Cannot find any model weights" in issue["message"]
    assert "delete the stale index" in issue["message"]
    # the maps themselves are as before
    assert {c["name"]: c["ok"] for c in report["checks"] if c["name"] != "weight_files"} == {
        c["name"]: c["ok"] for c in json.loads(before.output)["checks"]}

    # diagnose's vocab step turns it into the catalog's SD710, at error severity
    (finding,) = check_vocab_report(report)
    assert (finding.code, finding.severity) == ("SD710", "error")
    assert finding.facts == {"index": str(index)}

    # the fix the message names: delete the index, and the draft passes again
    index.unlink()
    fixed = _vocab(root / "draft", root / "target")
    assert fixed.exit_code == 0 and json.loads(fixed.output)["ok"] is True, fixed.output


def test_stale_bin_index_beside_a_pickle_is_no_sd710(world, tmp_path):
    """vLLM and SGLang filter only safetensors files by an index; a pytorch_model.bin beside a
    stale pytorch_model.bin.index.json loads (filter_files_not_needed_for_inference)."""
    from safetensors.torch import load_file

    root = _copy(tmp_path, world)
    draft = root / "draft"
    state = load_file(draft / "model.safetensors")
    (draft / "model.safetensors").unlink()
    torch.save(state, draft / "pytorch_model.bin")
    (draft / "pytorch_model.bin.index.json").write_text(json.dumps(
        {"metadata": {}, "weight_map": {name: "pytorch_model-00001-of-00002.bin" for name in state}}))
    result = _vocab(draft, root / "target")
    report = json.loads(result.output)
    assert "weight_files" not in [c["name"] for c in report["checks"]]
    assert result.exit_code == 0 and report["ok"] is True, result.output
    # and the note says the engines load the pickle (it said they would find no weights)
    (note,) = [n for n in report["notes"] if "names no shard that is here" in n]
    assert note == (f"{draft / 'pytorch_model.bin.index.json'} names no shard that is here: an "
                    "index left by an earlier sharded save beside pytorch_model.bin, which was "
                    "read, as transformers, vLLM and SGLang read it (none of them filters "
                    "pickles by an index): harmless, but delete the stale index")
