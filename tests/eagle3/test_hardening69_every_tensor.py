"""A fix made to one large tensor only (fc.weight) and saved beside the speculators 0.9.0
safetensors - as model.pt, as pytorch_model.bin, or as a newer single model.safetensors over
a sharded save - was not named: the checks compared only the 3 smallest tensors both hold
(the norms), which agree. Everyone serves the safetensors (vLLM 0.34.0 / SGLang 0.5.23
_prepare_weights take the first of *.safetensors, *.bin, *.pt that matches; transformers tries
safetensors first), so the fix never reaches the server. Every tensor is compared now, a chunk
at a time (the chunk is made tiny here, so a tensor is compared over many reads)."""

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

from spec_debug.eagle3 import checkpoint  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h69_every_tensor")
    save_verifier_and_draft(root)
    return root


@pytest.fixture
def draft(base, tmp_path, monkeypatch) -> Path:
    monkeypatch.setattr(checkpoint, "_CHUNK_ELEMENTS", 16)
    shutil.copytree(base, tmp_path / "case")
    return tmp_path / "case" / "draft"


def _notes(draft: Path, word: str) -> list[str]:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                         str(draft.parent / "target"), "--json"])
    assert result.exit_code == 0, result.output
    return [note for note in json.loads(result.output)["notes"] if word in note]


def _fixed(draft: Path, last_row_only: bool = True) -> dict:
    state = load_file(str(draft / "model.safetensors"))
    fc = state["fc.weight"].clone()
    assert fc.numel() > 3 * 16  # compared over several chunks
    fc[-1, -1] += 1.0  # the last element of the last chunk
    state["fc.weight"] = fc
    return state


@pytest.mark.parametrize("name", ["model.pt", "pytorch_model.bin"])
def test_a_fix_to_fc_weight_alone_is_named(draft, name):
    torch.save(_fixed(draft), draft / name)
    (note,) = _notes(draft, "other weights")
    assert note.startswith(f"{draft / name} holds other weights than the safetensors beside it "
                           "(fc.weight differs)"), note


@pytest.mark.parametrize("name", ["model.pt", "pytorch_model.bin"])
def test_the_same_weights_are_not_named(draft, name):
    torch.save(load_file(str(draft / "model.safetensors")), draft / name)
    assert _notes(draft, "other weights") == []


def test_a_single_file_fixed_in_fc_weight_over_shards_says_they_differ(draft):
    from safetensors.torch import save_file
    from speculators.models.eagle3 import Eagle3DraftModel

    fixed = _fixed(draft)
    Eagle3DraftModel.from_pretrained(str(draft)).save_pretrained(draft, max_shard_size="20KB")
    assert (draft / "model.safetensors.index.json").exists()
    save_file(fixed, str(draft / "model.safetensors"), metadata={"format": "pt"})
    (note,) = _notes(draft, "is beside")
    assert "they hold different weights (fc.weight differs)" in note, note
