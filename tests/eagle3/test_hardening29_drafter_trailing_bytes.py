"""A speculators draft (and an hs sample) whose model.safetensors has 100 bytes past its last
tensor (a copy written over a longer file, an append). safetensors refuses it, so
speculators' from_pretrained does ("incomplete metadata, file not fully covered"), and so do
the engines' loaders. spec-debug passed that text on: "cannot read d2t (Error while
deserializing header: incomplete metadata, file not fully covered)", which names neither the
fault nor the fix (a cut file gets "truncated (N bytes, the header describes M); copy or
download it again"). Now the extra bytes are counted and the fix given."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    world = save_informative_world(tmp_path_factory.mktemp("trailing"), seed=1)
    shutil.copytree(world / "draft", world / "long")
    with open(world / "long" / "model.safetensors", "ab") as handle:
        handle.write(b"\0" * 100)
    shutil.copytree(world / "data", world / "long_data")
    with open(world / "long_data" / "hs_1.safetensors", "ab") as handle:
        handle.write(b"\0" * 100)
    return world


def test_speculators_refuses_it(world):
    from safetensors import SafetensorError
    from speculators.models.eagle3 import Eagle3DraftModel

    with pytest.raises(SafetensorError, match="not fully covered"):
        Eagle3DraftModel.from_pretrained(str(world / "long"))


def test_vocab_and_eval_count_the_extra_bytes(world):
    for run in (lambda: check_drafter_vocab(world / "long", world / "target"),
                lambda: evaluate_drafter(world / "long", world / "data", world / "target")):
        with pytest.raises(CheckpointError) as caught:
            run()
        assert caught.value.message.startswith(f"{world / 'long' / 'model.safetensors'}: 100 "
                                               "byte(s) past the tensors the header describes")
        assert caught.value.message.endswith("copy or download it again")


def test_an_hs_sample_with_extra_bytes_is_skipped_with_the_same_words(world):
    result = evaluate_drafter(world / "draft", world / "long_data", world / "target")
    [skipped] = result["skipped"]
    assert skipped["file"].endswith("hs_1.safetensors")
    assert ": 100 byte(s) past the tensors the header describes" in skipped["reason"]
    assert result["counts"]["full_total"][0] == 28
