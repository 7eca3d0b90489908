"""A speculators draft saved with d2t and no t2d (what engines read) whose last offset points
one past the target vocabulary (127 + d2t[127] = 256 of 256 ids). `drafter vocab` says "1
mapped ids fall outside [0, 256)" (SD302), as it should; but eval, having no t2d, scored the
draft against the target's first 128 rows (the fallback for absolute ids stored as offsets)
and read step-0 accuracy 0.0 for a draft that hits 0.69 with its own rows. Now only draft id
127 has no target row; the other 127 keep theirs: 0.6905, the SD302 note still given."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


# the draft ids named, and what engines do with them, since hardening47
STRAY = ("1 mapped ids fall outside [0, 256) (draft id 127 -> 256): vLLM fails every draft step "
         "with an index out of bounds (a CUDA device-side assert: compute_logits scatters each "
         "draft logit to its target id), SGLang proposes a token id the target has no row for; "
         "save d2t again from the training's vocab map")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    world = save_informative_world(tmp_path_factory.mktemp("d2t_past"), seed=1)
    weights = world / "draft" / "model.safetensors"
    tensors = load_file(str(weights))
    del tensors["t2d"]
    tensors["d2t"][-1] = 256 - 127  # draft id 127 -> target id 256
    save_file(tensors, str(weights), metadata={"format": "pt"})
    return world


def test_vocab_names_the_stray_offset(world):
    report = check_drafter_vocab(world / "draft", world / "target")
    issues = [i["message"] for c in report["checks"] for i in c["issues"]]
    assert issues == [STRAY] and not report["ok"]


def test_eval_scores_the_other_rows_as_they_are(world):
    result = evaluate_drafter(world / "draft", world / "data", world / "target")
    assert result["full_accuracy"][0] == pytest.approx(0.6905, abs=1e-4)
    assert result["target_acceptance"][0] == pytest.approx(0.3571, abs=1e-4)
    assert f"SD302: {STRAY}" in result["notes"]
