"""A sharded draft whose d2t sits in two shards with different values (a re-save into a folder
that kept an older shard; here speculators' own save split in two, the stale copy in the
second shard). The index places d2t in the first shard, yet the draft was read from the copy
met last: its vocab map was called broken (SD302: 38 mapped ids out of range, d2t differs
from t2d at 128 of 128 ids) and nothing said why. vLLM and SGLang read every tensor of every
shard (weight_utils.py safetensors_weights_iterator) and keep the last copy. Now the copy the
index places is read and a note names the tensor, its shards and the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.checkpoint import duplicated_note, open_draft  # noqa: E402
from spec_debug.eagle3.vocab import check_checkpoint_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

FIRST, SECOND = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"


@pytest.fixture(scope="module")
def draft(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shard_copies")
    save_verifier_and_draft(root)
    return root / "draft"


def _sharded(draft: Path, out: Path, stale: bool) -> Path:
    out.mkdir()
    (out / "config.json").write_text((draft / "config.json").read_text())
    tensors = load_file(str(draft / "model.safetensors"))
    names = sorted(tensors)
    first, second = names[:len(names) // 2], names[len(names) // 2:]
    kept = {name: tensors[name] for name in second}
    kept["d2t"] = tensors["d2t"] + 1 if stale else tensors["d2t"]  # d2t sorts first
    save_file({name: tensors[name] for name in first}, str(out / FIRST), {"format": "pt"})
    save_file(kept, str(out / SECOND), {"format": "pt"})
    weight_map = {name: FIRST for name in first} | {name: SECOND for name in second}
    (out / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    return out


def test_the_copy_the_index_places_is_read_and_the_other_named(draft, tmp_path):
    checkpoint = open_draft(_sharded(draft, tmp_path / "stale", stale=True))
    assert check_checkpoint_vocab(checkpoint).issues == []
    note = duplicated_note(checkpoint.tensors, "draft")
    assert note == (f"the draft's d2t is stored in 2 shards with different values ({FIRST}, "
                    f"{SECOND}): the copy in {FIRST}, where model.safetensors.index.json "
                    "places it, was read, but vLLM and SGLang load every copy and keep the "
                    "last one they read; remove the stale copies (save the draft again into "
                    "an empty folder)")


def test_equal_copies_are_not_named(draft, tmp_path):
    checkpoint = open_draft(_sharded(draft, tmp_path / "same", stale=False))
    assert duplicated_note(checkpoint.tensors, "draft") is None
    assert check_checkpoint_vocab(checkpoint).issues == []
