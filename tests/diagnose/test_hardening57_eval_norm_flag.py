"""The drafter_accuracy playbook (one drafter_eval step) on a draft saved by speculators with
norm_before_residual false whose config.json was then set to true (speculators' trainer
default, pasted over a converted draft's config): the evaluation found that the weights fit
false (step-0 accuracy 0.69 vs 0.05) and said so in a note, but the step raised nothing and
the run PASSED. The step now raises SD704, as the layout step does from the same check,
unless a step before it on the host raised SD704. The world is saved by speculators 0.9.0
(tests/eagle3/speculators_world.py)."""

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
    return save_informative_world(tmp_path_factory.mktemp("h57-eval-flag"), seed=1)


def _run(root):
    return drafter_eval.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                             "hidden_states": str(root / "data")})


def test_a_norm_flag_the_weights_do_not_fit_is_sd704(world, tmp_path):
    root = tmp_path / "w"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["norm_before_residual"] = True
    path.write_text(json.dumps(config))
    out = _run(root)
    assert out["reference"]["full_accuracy"][0] < 0.2
    findings = eval_step.check(context(eval_step.parse(out)))
    [sd704] = [f for f in findings if f.code == "SD704"]
    assert sd704.severity == "error"
    assert sd704.evidence[0].startswith("config.json's norm_before_residual is true, but the draft's "
                                        "weights fit false"), sd704.evidence
    # said once on a host whose layout step raised it first
    earlier = {"layout": {"raised": ["SD704"]}}
    assert not [f for f in eval_step.check(context(eval_step.parse(out), earlier)) if f.code == "SD704"]


def test_the_flag_as_trained_raises_nothing(world):
    out = _run(world)
    assert out["reference"]["norm_before_residual_check"] is None
    assert not [f for f in eval_step.check(context(eval_step.parse(out))) if f.code == "SD704"]


def test_with_engine_sglang_the_line_says_sglang_never_reads_it(tmp_path):
    # trained with norm_before_residual true (speculators' trainer default), config.json set to
    # false: the fix is not a config edit on SGLang, which runs the flag as false whatever it says
    root = save_informative_world(tmp_path / "w", seed=1, draft_flags={"norm_before_residual": True})
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["norm_before_residual"] = False
    path.write_text(json.dumps(config))
    out = drafter_eval.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                            "hidden_states": str(root / "data"), "engine": "sglang"})
    [sd704] = [f for f in eval_step.check(context(eval_step.parse(out))) if f.code == "SD704"]
    assert "SGLang never reads norm_before_residual" in sd704.evidence[1], sd704.evidence
