"""`spec-debug drafter vocab` (api.check_drafter_vocab) on a draft whose files are at fault.
Without --target, the notes on the draft's own files (a tensor two shards hold with different
values, weights no index names) were replaced by the verifier lookup's notes and never shown;
and the two-shard note was given by eval only. Now vocab shows what eval shows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

FIRST, SECOND = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"


@pytest.fixture(scope="module")
def draft(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("vocab_notes")
    save_verifier_and_draft(root)
    return root / "draft"


def _stale_shard(draft: Path, out: Path) -> Path:
    """speculators' save split in two shards, an older d2t left in the second."""
    out.mkdir()
    shutil.copy(draft / "config.json", out / "config.json")
    tensors = load_file(str(draft / "model.safetensors"))
    names = sorted(tensors)
    first, second = names[:len(names) // 2], names[len(names) // 2:]
    save_file({name: tensors[name] for name in first}, str(out / FIRST), {"format": "pt"})
    save_file({name: tensors[name] for name in second} | {"d2t": tensors["d2t"] + 1}, str(out / SECOND),
              {"format": "pt"})
    weight_map = {name: FIRST for name in first} | {name: SECOND for name in second}
    (out / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    return out


@pytest.mark.parametrize("verifier", [True, False])
def test_a_stale_shard_copy_is_named_with_or_without_the_verifier_lookup(draft, tmp_path, verifier):
    report = check_drafter_vocab(_stale_shard(draft, tmp_path / "stale"), find_verifier=verifier)
    notes = [n for n in report["notes"] if "stored in 2 shards with different values" in n]
    assert len(notes) == 1 and notes[0].startswith("the draft's d2t is stored in 2 shards")
    assert report["ok"]  # the copy the index places is the right map


def test_weights_no_index_names_are_named_without_a_target(draft, tmp_path):
    out = tmp_path / "renamed"
    shutil.copytree(draft, out)
    (out / "model.safetensors").rename(out / "eagle3.safetensors")
    report = check_drafter_vocab(out)
    assert [n for n in report["notes"] if "with neither model.safetensors" in n]


def test_a_clean_draft_has_no_file_notes(draft):
    report = check_drafter_vocab(draft)
    assert not [n for n in report["notes"] if "shards" in n or "model.safetensors" in n]
