"""A speculators 0.9.0 draft whose d2t sends two draft ids past the target vocabulary (a
hand-edited or mis-merged map), its t2d as training saved it. `drafter vocab` said "2 mapped
ids fall outside [0, 256)" (SD302) with the target ids as evidence: neither which draft ids
are stray nor that vLLM scatters every draft logit to its target id on each step
(llama_eagle3.py compute_logits) and so fails every draft step with an index out of bounds.
It now names the draft ids and what the engines do with them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("d2t_stray")
    save_verifier_and_draft(root)
    return root


def test_stray_draft_ids_are_named_with_what_engines_do(world, tmp_path):
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    d2t = tensors["d2t"]
    d2t[-2] += 1000  # draft id 126 -> past the 256-token vocabulary
    d2t[-1] += 2000
    save_file(tensors, str(draft / "model.safetensors"))
    mapped = [i + int(o) for i, o in enumerate(d2t)]
    report = check_drafter_vocab(draft, world / "target")
    stray = [issue for check in report["checks"] for issue in check["issues"]
             if issue["kind"] == "d2t_out_of_range"]
    assert [(issue["code"], issue["message"]) for issue in stray] == [(
        "SD302", f"2 mapped ids fall outside [0, 256) (draft id 126 -> {mapped[126]}, draft id "
                 f"127 -> {mapped[127]}): vLLM fails every draft step with an index out of "
                 "bounds (a CUDA device-side assert: compute_logits scatters each draft logit "
                 "to its target id), SGLang proposes a token id the target has no row for; "
                 "save d2t again from the training's vocab map")]
    assert stray[0]["facts"] == {"count": 2, "examples": [mapped[126], mapped[127]]}
    assert not report["ok"]
