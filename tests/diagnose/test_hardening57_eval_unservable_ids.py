"""The drafter_accuracy playbook with engine=vllm on a draft saved by speculators whose
eagle_aux_hidden_state_layer_ids were then set for a deeper target ([2, 4, 12] on an 8-layer
verifier): vLLM captures [2, 4] and builds fc for 3 states, so it fails to run the draft. The
evaluation said so in a note, but its engine run scored the configured layout like the
reference, and the step (no configs step in that playbook) PASSED. It now raises SD201
unless an earlier step raised a layer code. The world is saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("h57-eval-ids"), seed=1)


def _run(root):
    return drafter_eval.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "hidden_states": str(root / "data"), "engine": "vllm",
                             "engine_version": "0.12.0", "max_samples": "2"})


def test_ids_past_the_target_depth_are_sd201(world, tmp_path):
    root = tmp_path / "w"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["eagle_aux_hidden_state_layer_ids"] = [2, 4, 12]
    path.write_text(json.dumps(config))
    out = _run(root)
    findings = eval_step.check(context(eval_step.parse(out)))
    [sd201] = [f for f in findings if f.code == "SD201"]
    assert sd201.severity == "error"
    said = " ".join(sd201.evidence)
    assert "it captures [2, 4]" in said and "layer(s) [12] are never captured" in said, said
    assert "its fc takes 3 states and is fed 2: vllm fails to run this draft" in said, said
    earlier = {"configs": {"raised": ["SD201"]}}
    assert not [f for f in eval_step.check(context(eval_step.parse(out), earlier)) if f.code == "SD201"]


def test_a_servable_draft_raises_no_sd201(world):
    out = _run(world)
    assert out["engine"]["unservable_capture"] is None
    assert not [f for f in eval_step.check(context(eval_step.parse(out))) if f.code == "SD201"]
