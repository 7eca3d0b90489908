"""A full-vocabulary draft (draft_vocab_size == the target's vocab) that carries d2t and t2d
anyway: speculators 0.9.0 registers no maps then (src/speculators/model.py: t2d/d2t are None
unless draft_vocab_size != vocab_size), but exporters that always register the buffers
(d2t zeros [V], t2d [V]) save them. vLLM 0.34.0 builds no draft_id_to_target_id for such a
draft (llama_eagle3.py / qwen3_eagle3.py / deepseek_eagle3.py __init__: None when
draft_vocab_size == the target's vocab size), yet its load_weights renames d2t to
draft_id_to_target_id and keeps it, and AutoWeightsLoader raises "There is no module or
parameter named 'draft_id_to_target_id'" (model_executor/models/utils.py _load_module).
NVIDIA-NeMo/Automodel#2447 registers the maps only for a compressed vocabulary for this
reason. Before: `drafter vocab` passed every check."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """speculators' draft made full-vocabulary: draft_vocab_size V and the verifier's
    [V, H] head, no d2t/t2d (what speculators saves for draft_vocab_size == vocab_size)."""
    root = tmp_path_factory.mktemp("h69_full_vocab")
    save_verifier_and_draft(root)
    draft = root / "draft"
    state = load_file(str(draft / "model.safetensors"))
    target = load_file(str(root / "target" / "model.safetensors"))
    state["lm_head.weight"] = target["lm_head.weight"]
    del state["d2t"], state["t2d"]
    save_file(state, str(draft / "model.safetensors"), metadata={"format": "pt"})
    config = json.loads((draft / "config.json").read_text())
    config["draft_vocab_size"] = V
    (draft / "config.json").write_text(json.dumps(config))
    return root


@pytest.fixture
def draft(base, tmp_path) -> Path:
    shutil.copytree(base, tmp_path / "case")
    return tmp_path / "case" / "draft"


def _vocab(draft: Path):
    return runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                       str(draft.parent / "target"), "--json"])


def test_a_full_vocabulary_draft_without_maps_passes(draft):
    result = _vocab(draft)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ok"] is True


def test_maps_saved_with_a_full_vocabulary_are_named(draft):
    state = load_file(str(draft / "model.safetensors"))
    state["d2t"] = torch.zeros(V, dtype=torch.long)
    state["t2d"] = torch.ones(V, dtype=torch.bool)
    save_file(state, str(draft / "model.safetensors"), metadata={"format": "pt"})
    result = _vocab(draft)
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    failed = [check for check in report["checks"] if not check["ok"]]
    assert [check["name"] for check in failed] == ["d2t_present"], failed
    assert failed[0]["issues"] == [{
        "kind": "d2t_full_vocab", "code": "SD302",
        "message": f"the draft's vocabulary is the target's whole vocabulary ({V}), yet the "
                   "checkpoint has a d2t: vLLM 0.34.0 builds no draft_id_to_target_id for a "
                   "full-vocabulary draft but renames d2t to it when loading, and stops "
                   "(\"There is no module or parameter named 'draft_id_to_target_id'\"); "
                   "SGLang takes arange + d2t as its hot-token map; delete d2t and t2d from "
                   "the checkpoint (speculators saves no maps for a full vocabulary)",
        "facts": {"draft_vocab_size": V, "target_vocab_size": V}}]
