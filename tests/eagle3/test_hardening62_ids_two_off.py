"""A dump whose token ids sit two positions off against its states (ids saved without their
first two, or rolled by two; same length, so data.py's length check passes): the alignment
check compared the verifier's argmax with the ids at offsets 0, 1 and 2 only, so such a dump
agreed with none and `drafter eval` scored it (0.016 at step 0) with no word of why. The
offsets now reach two positions either way; the check stays quiet on small aligned dumps
(17-41 rows) of greedy text, as speculators' data generation regenerates responses.

The world is test_hardening59_ids_off_by_one's: a verifier and draft saved by transformers and
speculators 0.9.0, greedy continuations captured as vLLM captures them."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402

from spec_debug.diagnose.checks.drafter import check_standalone_accuracy  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft, vllm_style_states  # noqa: E402
from tests.eagle3.test_hardening59_ids_off_by_one import _continuation, _misaligned  # noqa: E402


def _world(root, shift: int, samples: int = 3, new: int = 20):
    """data/ of greedy samples; shift -2: ids two ahead (ids[2:] beside states[:-2]), +2: two
    behind (ids[:-2] beside states[2:]), 0: aligned."""
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(7)
    for i in range(samples):
        ids = _continuation(verifier, torch.randint(0, 256, (4,), generator=generator), new)
        ids, hidden = vllm_style_states(verifier, ids)
        if shift < 0:
            ids, hidden = ids[-shift:], hidden[:shift]
        elif shift > 0:
            ids, hidden = ids[:-shift], hidden[shift:]
        save_file({"token_ids": ids.contiguous(), "hidden_states": hidden.contiguous()},
                  str(root / "data" / f"hs_{i}.safetensors"))
    return root


@pytest.mark.parametrize("shift, how, offset", [(-2, "two ahead", "p - 1"), (2, "two behind", "p + 3")])
def test_ids_two_off_are_named(tmp_path, shift, how, offset):
    root = _world(tmp_path / "w", shift)
    out = evaluate_drafter(root / "draft", root / "data")
    notes = _misaligned(out["notes"])
    assert len(notes) == 1, out["notes"]
    assert notes[0].startswith(f"the dump's token ids look {how} of the states" if shift < 0
                               else f"the dump's token ids look {how} the states"), notes[0]
    assert f"matches token_ids[{offset}] at" in notes[0]
    # SD401 names the cause of the low accuracy, as for ids one off
    finding = check_standalone_accuracy(out, 0.7)[0]
    assert any(how in line for line in finding.evidence), finding.evidence


def test_layout_verdict_says_two_positions(tmp_path):
    root = _world(tmp_path / "w", 2)
    report = probe_layout(root / "draft", root / "data", root / "target")
    assert "token ids sit two positions off against its states" in report["verdict"], report["verdict"]


@pytest.mark.parametrize("new", [13, 21, 37])
def test_small_aligned_dumps_get_no_note(tmp_path, new):
    """One greedy sample of 17-41 tokens: 16-40 rows, at and above the note's minimum."""
    root = _world(tmp_path / "w", 0, samples=1, new=new)
    out = evaluate_drafter(root / "draft", root / "data")
    assert _misaligned(out["notes"]) == []
