"""A dump of a left-padded batch (tokenizer padding_side="left") saved row by row without its
attention_mask: each sample opens with 3 of the target's eos id (the pad token where the model
has none) and their states. Eval scored them as tokens with no word: step-0 accuracy 0.690 ->
0.275 (every later row attends to the pad rows), read as a bad draft. speculators' loader
reads token_ids and hidden_states only (src/speculators/train/data.py) and would train on
them. Now a note names the samples, the pad id and the positions; the same dump with its
attention_mask saved is cut as before and gets no such note, nor does the sound dump."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

EOS = 2  # the test target's eos_token_id (LlamaConfig's default); it has no pad_token_id


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("left_pad"), seed=1)


def _left_padded(world: Path, out: Path, *, with_mask: bool) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        padded = {"token_ids": torch.cat([torch.full((3,), EOS, dtype=ids.dtype), ids]),
                  # what a masked pad row holds: finite states of its own
                  "hidden_states": torch.cat([states[:1].repeat(3, 1, 1) * 0.5, states])}
        if with_mask:
            mask = torch.ones(ids.shape[0] + 3, dtype=torch.long)
            mask[:3] = 0
            padded["attention_mask"] = mask
        save_file(padded, str(out / path.name))
    return out


def _pad_notes(result) -> list[str]:
    return [n for n in result["notes"] if "left-padded batch" in n]


def test_left_padding_without_its_mask_is_said(world, tmp_path):
    result = evaluate_drafter(world / "draft", _left_padded(world, tmp_path / "p", with_mask=False),
                              world / "target", steps=1)
    [note] = _pad_notes(result)
    assert note.startswith("3 of 3 samples open with a run of the target's pad/eos token id 2 "
                           "(9 position(s) in all)")


def test_the_masked_dump_and_the_sound_one_get_no_such_note(world, tmp_path):
    masked = evaluate_drafter(world / "draft", _left_padded(world, tmp_path / "m", with_mask=True),
                              world / "target", steps=1)
    assert not _pad_notes(masked)
    assert masked["full_accuracy"][0] == pytest.approx(0.690, abs=0.001)
    sound = evaluate_drafter(world / "draft", world / "data", world / "target", steps=1)
    assert not _pad_notes(sound)
