"""A dump whose token ids sit one position off against its states, padded past each sample's
end as SpecForge and speculators' collate pad (zero states, a pad id, loss_mask 0 there).
alignment.id_agreement counted every row: on padding the verifier's argmax of a zero state is
one constant token, the pad ids another constant, so when they are the same token (pad id 0
here, the argmax of all-zero logits) the padding agrees at every offset alike and the
off-by-one offset fell under MIN_RATIO times the aligned one: `drafter eval` scored the wrong
tokens' embeddings in silence. The loss-masked rows are now counted when they are enough.

The world is tests/eagle3/test_hardening59_ids_off_by_one.py's (transformers verifier and a
speculators 0.9.0 draft, vLLM-style states), with the padding added."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402

from spec_debug.eagle3.alignment import OFFSETS, id_agreement, misalignment_note  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft, vllm_style_states  # noqa: E402
from tests.eagle3.test_hardening59_ids_off_by_one import _continuation, _misaligned  # noqa: E402

PAD = 0
PADDING = 60


def _padded_world(root, shift: int):
    """3 samples of 23 rows; shift -1: ids one ahead of the states; each padded by PADDING
    rows of zero states and pad ids, loss_mask 1 on the written rows only."""
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(7)
    for i in range(3):
        ids = _continuation(verifier, torch.randint(0, 256, (4,), generator=generator), 20)
        ids, hidden = vllm_style_states(verifier, ids)
        if shift < 0:
            ids, hidden = ids[1:], hidden[:-1]
        T = ids.shape[0]
        ids = torch.cat([ids, torch.full((PADDING,), PAD, dtype=ids.dtype)])
        hidden = torch.cat([hidden, hidden.new_zeros((PADDING, *hidden.shape[1:]))])
        mask = torch.cat([torch.ones(T, dtype=torch.long), torch.zeros(PADDING, dtype=torch.long)])
        save_file({"token_ids": ids.contiguous(), "hidden_states": hidden.contiguous(),
                   "loss_mask": mask}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def test_ids_one_ahead_are_named_through_the_padding(tmp_path):
    root = _padded_world(tmp_path / "w", -1)
    out = evaluate_drafter(root / "draft", root / "data")
    assert out["reference"] == "target_argmax"
    notes = _misaligned(out["notes"])
    assert len(notes) == 1, out["notes"]
    assert "one ahead" in notes[0] and "token_ids[p + 0]" in notes[0]


def test_the_same_dump_aligned_and_padded_gets_no_note(tmp_path):
    root = _padded_world(tmp_path / "w", 0)
    out = evaluate_drafter(root / "draft", root / "data")
    assert _misaligned(out["notes"]) == []


def test_the_counts_over_the_scored_rows_and_over_every_row():
    # row t's argmax predicts position t + 1: ids[t + 1] aligned (d = 1), ids[t] one ahead
    target = torch.tensor([5, 6, 7, 0, 0, 0])
    ids = torch.tensor([5, 6, 7, 0, 0, 0])  # one ahead on the first 3 rows, then padding
    scored = torch.tensor([True, True, True, False, False, False])
    counts = id_agreement(target, ids, scored)
    assert counts.shape == (2, len(OFFSETS), 2)
    by_offset = dict(zip(OFFSETS, counts[0].tolist()))
    assert by_offset[0] == [3, 3] and by_offset[1] == [0, 3]
    every = dict(zip(OFFSETS, counts[1].tolist()))
    assert every[0] == [6, 6] and every[1] == [2, 5]


def test_a_mask_of_too_few_rows_falls_back_to_every_row():
    # 20 rows all one ahead; the mask selects 4 of them: too few (MIN_ROWS) alone
    target = torch.arange(20)
    scored = torch.zeros(20, dtype=torch.bool)
    scored[:4] = True
    note = misalignment_note(id_agreement(target, torch.arange(20), scored))
    assert len(note) == 1 and "one ahead" in note[0]
