"""A hidden-state dump whose token ids are one position off against its states, of the same
length (so data.py's length check passes): `drafter eval` fed the draft the embeddings of the
wrong tokens and reported a weak accuracy with no word of why. It now says the ids look one
ahead / one behind, from the verifier's own argmax, and stays quiet on an aligned dump.

The world: a verifier and draft saved by transformers and speculators 0.9.0; samples whose ids
are the verifier's greedy continuation (as speculators' data generation regenerates responses
with the target), avoiding the last few tokens since a random tiny verifier loops, and whose
states are captured as vLLM captures them."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft, vllm_style_states  # noqa: E402


def _continuation(verifier, prompt: torch.Tensor, new: int) -> torch.Tensor:
    ids = prompt.clone()
    with torch.no_grad():
        for _ in range(new):
            logits = verifier(ids[None]).logits[0, -1]
            logits[ids[-4:]] = float("-inf")  # no loops: a random verifier repeats itself
            ids = torch.cat([ids, logits.argmax()[None]])
    return ids


def _world(root, shift: int):
    """data/ of 3 samples; shift 0: aligned, -1: ids one ahead (ids[1:] beside states[:-1]),
    +1: ids one behind (ids[:-1] beside states[1:])."""
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(7)
    for i in range(3):
        ids = _continuation(verifier, torch.randint(0, 256, (4,), generator=generator), 20)
        ids, hidden = vllm_style_states(verifier, ids)
        if shift < 0:
            ids, hidden = ids[1:], hidden[:-1]
        elif shift > 0:
            ids, hidden = ids[:-1], hidden[1:]
        save_file({"token_ids": ids.contiguous(), "hidden_states": hidden.contiguous()},
                  str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _misaligned(notes):
    return [n for n in notes if "token ids look" in n]


def test_aligned_dump_gets_no_note(tmp_path):
    root = _world(tmp_path / "w", 0)
    out = evaluate_drafter(root / "draft", root / "data")
    assert out["reference"] == "target_argmax"
    assert _misaligned(out["notes"]) == []


@pytest.mark.parametrize("shift, how, offset", [(-1, "one ahead", "p + 0"), (1, "one behind", "p + 2")])
def test_ids_one_off_are_named(tmp_path, shift, how, offset):
    root = _world(tmp_path / "w", shift)
    out = evaluate_drafter(root / "draft", root / "data")
    notes = _misaligned(out["notes"])
    assert len(notes) == 1, out["notes"]
    assert how in notes[0] and f"token_ids[{offset}]" in notes[0]
    assert "save each sample's ids with the states computed from them" in notes[0]


def test_layout_probe_says_its_ranking_read_the_wrong_tokens(cli, tmp_path):
    """`drafter layout` ranked layouts scored on the wrong tokens and named one as the layout
    the draft was trained on; its verdict now says the ids are off, and the note says how."""
    root = _world(tmp_path / "w", 1)
    result = cli("drafter", "layout", "--model", str(root / "draft"), "--data", str(root / "data"),
                 "--json")
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert "token ids sit one position off" in report["verdict"]
    assert len(_misaligned(report["notes"])) == 1 and "one behind" in _misaligned(report["notes"])[0]


def test_layout_probe_of_an_aligned_dump_says_nothing_of_ids(cli, tmp_path):
    root = _world(tmp_path / "w", 0)
    result = cli("drafter", "layout", "--model", str(root / "draft"), "--data", str(root / "data"),
                 "--json")
    report = json.loads(result.stdout)
    assert "token ids" not in report["verdict"] and _misaligned(report["notes"]) == []
