"""A speculators draft of a pruned vocabulary (128 of 256 ids) saved with d2t and without t2d
(an export that kept what engines read). speculators' own from_pretrained cannot load it: its
load_verifier_weights raises (t2d left as allocated: "t2d tensor hasn't been set" or a size
mismatch in verifier_lm_head). `drafter vocab` said "t2d skipped", eval said nothing. Now a
note says the engines serve it, speculators cannot load it, and how to rebuild t2d from d2t
(the t2d check stays skipped: the draft serves); eval carries the same note."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

LINE = ("d2t is saved without t2d: vLLM and SGLang serve the draft from d2t alone, but "
        "speculators' from_pretrained cannot load it (load_verifier_weights raises: \"t2d "
        "tensor hasn't been set\" or a size mismatch in verifier_lm_head), so training cannot "
        "resume from it; save t2d beside d2t (t2d = zeros(256, dtype=bool); "
        "t2d[arange(128) + d2t] = True)")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    world = save_informative_world(tmp_path_factory.mktemp("t2d_missing"), seed=1)
    weights = world / "draft" / "model.safetensors"
    tensors = load_file(str(weights))
    del tensors["t2d"]
    save_file(tensors, str(weights), metadata={"format": "pt"})
    return world


def test_speculators_itself_cannot_load_the_draft(world):
    from speculators.models.eagle3 import Eagle3DraftModel

    with pytest.raises((ValueError, RuntimeError)):
        Eagle3DraftModel.from_pretrained(str(world / "draft"))


def test_vocab_check_says_it_in_one_line_with_the_fix(world):
    # a note, not a failed check: the engines serve the draft (see the review's test,
    # test_hardening28_reviewdrafter_t2d_note)
    report = check_drafter_vocab(world / "draft", world / "target")
    [t2d] = [c for c in report["checks"] if c["name"] == "t2d"]
    assert t2d["ok"] and t2d["skipped"] and report["ok"]
    assert LINE in report["notes"]


def test_eval_scores_it_and_carries_the_line(world):
    result = evaluate_drafter(world / "draft", world / "data", world / "target")
    assert result["full_accuracy"][0] == pytest.approx(0.6905, abs=1e-4)
    assert LINE in result["notes"] and result["vocab_issues"] == []
