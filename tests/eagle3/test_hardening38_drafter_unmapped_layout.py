"""A draft exported without d2t (draft vocab 128 < target vocab 256) and no --vocab-mapping:
draft id i is scored as target id i, so every candidate layout scores near zero. The layout
probe still ranked them: its verdict read "configured layout ... scores best (step-0 accuracy
0.000) ... too few to tell the layouts apart ... probe a dump with more samples", and a layout
that got a few rows right by luck could raise SD402 ("the served layers are not the ones the
draft was trained on"). Like a draft with an untrained layer, no layout is judged now, and the
verdict names the missing map. The world is saved by speculators 0.9.0."""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.checks.drafter import check_layout  # noqa: E402
from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import codes, context  # noqa: E402
from tests.eagle3.speculators_world import DV, V, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def unmapped(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("unmapped-layout"), seed=1)
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    del state["d2t"], state["t2d"]
    save_file(state, str(path), metadata={"format": "pt"})
    return root


def _probe(root) -> dict:
    return hidden_layout.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                              "hidden_states": str(root / "data"), "engine": "vllm"})


def test_no_layout_is_judged_without_the_map(unmapped):
    layout = _probe(unmapped)["layout"]
    assert layout["unmapped_draft"] is True
    verdict = layout["verdict"]
    assert verdict.startswith("no layout can be judged with this draft: it has no d2t "
                              f"(draft vocab {DV} < target vocab {V})")
    assert "vocab_mapping" in verdict and "more samples" not in verdict
    assert layout["unconfirmed_rows"] is None and layout["unclear_rows"] is None


def test_the_layout_step_says_not_checked_instead_of_sd402(unmapped):
    out = _probe(unmapped)
    found = layout_step.check(context(layout_step.parse(out)))
    assert "SD402" not in [code for code, _ in codes(found)]
    [line] = [f for f in found if "layout not judged" in f.evidence[0]]
    assert line.code == "SD004" and "no d2t" in line.evidence[0]
    # a layout lucky on a few rows (5.1% vs 0%) is no finding either
    training = dict(out["layout"])
    training["ranked"] = [{"layout": [0, 1, 3], "full_accuracy0": 0.051},
                          {"layout": [0, 1, 2], "full_accuracy0": 0.0}]
    assert check_layout(training, [0, 1, 2]) == []


def test_eval_still_scores_the_draft_as_served(unmapped):
    # the evaluation measures what an engine does with the checkpoint (id i read as i): kept
    result = evaluate_drafter(unmapped / "draft", unmapped / "data", unmapped / "target", steps=1)
    assert result["full_accuracy"][0] < 0.1
    assert any(note.startswith("SD301") for note in result["notes"])
