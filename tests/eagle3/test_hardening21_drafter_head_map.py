"""A speculators 0.9.0 draft whose vocab map is not the one its lm_head rows were copied from.
speculators copies lm_head from the verifier rows t2d selects and freezes it
(src/speculators/model.py DraftVocabMixin), so draft row i is the target's row i + d2t[i]. A
d2t/t2d built for another tokenizer or selection of ids (in the checkpoint, or passed with
--vocab-mapping) fits every shape and bijection check and scored 0.0 with no word of why."""

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
from tests.eagle3.speculators_world import DV, V, save_informative_world  # noqa: E402

runner = CliRunner()
NOTE = "lm_head rows are copies of the target's, at other token ids than"


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("h21_head_map"), seed=21)


@pytest.fixture
def world(base, tmp_path) -> Path:
    root = tmp_path / "case"
    shutil.copytree(base, root)
    return root


def _other_selection() -> tuple[torch.Tensor, torch.Tensor]:
    """(d2t, t2d) of another sorted selection of DV ids: a valid bijection, of the same sizes."""
    selected = torch.sort(torch.randperm(V, generator=torch.Generator().manual_seed(99))[:DV]).values
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    return selected - torch.arange(DV), t2d


def _rewrite_draft(root: Path, change) -> None:
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    change(tensors)
    save_file(tensors, str(path), metadata={"format": "pt"})


def _eval(root: Path, *extra: str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--steps", "2", "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_map_of_another_selection_in_the_checkpoint_is_named(world):
    d2t, t2d = _other_selection()
    _rewrite_draft(world, lambda s: s.update(d2t=d2t, t2d=t2d))
    vocab = runner.invoke(drafter_app, ["vocab", "--model", str(world / "draft"), "--target",
                                        str(world / "target"), "--json"])
    # every shape and bijection check passes: only the rows tell, in `vocab` as in eval
    assert vocab.exit_code == 1, vocab.output
    issues = [i for c in json.loads(vocab.output)["checks"] for i in c["issues"]]
    assert [(i["code"], i["kind"]) for i in issues] == [("SD302", "d2t_misaligns_lm_head")]
    assert NOTE in issues[0]["message"] and "its d2t/t2d maps them to" in issues[0]["message"]
    out = _eval(world)
    [note] = [note for note in out["notes"] if NOTE in note]  # once, as the SD302 it is
    assert note.startswith("SD302: ") and "its d2t/t2d maps them to" in note
    assert "another tokenizer" in note
    assert [(issue["code"], issue["kind"]) for issue in out["vocab_issues"]
            if NOTE in issue["message"]] == [("SD302", "d2t_misaligns_lm_head")]


def test_a_vocab_mapping_file_of_another_run_is_named(world, tmp_path):
    d2t, t2d = _other_selection()
    mapping = tmp_path / "vocab_mapping.pt"
    torch.save({"d2t": d2t, "t2d": t2d}, mapping)  # SpecForge's form of the map file
    out = _eval(world, "--vocab-mapping", str(mapping))
    assert any(note.startswith("SD302: ") and NOTE in note and "the --vocab-mapping file" in note
               for note in out["notes"]), out["notes"]


def test_the_drafts_own_map_and_a_bfloat16_save_get_no_note(base, world):
    assert not [note for note in _eval(base)["notes"] if NOTE in note]
    _rewrite_draft(world, lambda s: s.update({name: tensor.to(torch.bfloat16) for name, tensor
                                              in s.items() if tensor.is_floating_point()}))
    assert not [note for note in _eval(world)["notes"] if NOTE in note]
