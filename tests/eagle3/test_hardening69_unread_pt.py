"""A speculators 0.9.0 draft folder with a torch.save(state_dict) file under another name
(model.pt) beside model.safetensors, holding other weights: a retrained or fixed draft saved
into the folder by hand. transformers' from_pretrained (so speculators) knows no such name, and
vLLM 0.34.0 / SGLang 0.5.23 take the first of "*.safetensors", "*.bin", "*.pt" that matches
(vllm/model_executor/model_loader/default_loader.py _prepare_weights; SGLang's copy in
sglang/srt/model_loader/loader.py): the .pt is never served. Before: `drafter vocab` and
`drafter eval` read the safetensors, as everyone does, without a word about the .pt (they did
name a differing pytorch_model.bin, test_hardening46_drafter_unread_pickle.py)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h69_unread_pt")
    save_verifier_and_draft(root)
    return root


@pytest.fixture
def draft(base, tmp_path) -> Path:
    shutil.copytree(base, tmp_path / "case")
    return tmp_path / "case" / "draft"


def _notes(draft: Path) -> list[str]:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                         str(draft.parent / "target"), "--json"])
    assert result.exit_code == 0, result.output
    return [note for note in json.loads(result.output)["notes"] if "torch.save" in note]


def _save_pt(draft: Path, name: str, scale: float) -> None:
    state = load_file(str(draft / "model.safetensors"))
    torch.save({k: v * scale if v.is_floating_point() else v for k, v in state.items()},
               draft / name)


def test_a_retrained_model_pt_beside_the_safetensors_is_named(draft):
    _save_pt(draft, "model.pt", 1.1)
    assert _notes(draft) == [
        f"{draft / 'model.pt'} holds other weights than the safetensors beside it "
        "(layers.0.hidden_norm.weight differs): vLLM, SGLang and transformers (so "
        "speculators) load only the safetensors, which were read here; the torch.save file is "
        "never served: if it is the newer save of this draft, write it as model.safetensors "
        "(safetensors.torch.save_file), else delete it"]


def test_a_copy_of_the_same_save_is_not_named(draft):
    _save_pt(draft, "model.pt", 1.0)
    torch.save({"state": {}, "param_groups": []}, draft / "optimizer_state_dict.pt")
    assert _notes(draft) == []
