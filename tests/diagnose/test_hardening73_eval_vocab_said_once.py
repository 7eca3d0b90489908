"""A playbook with a configs step and a drafter_eval step but no vocab step, on a draft saved by
speculators 0.9.0 over a verifier whose config.json later says another vocab_size (a newer
revision of the target). Before: the configs step raised SD303 from the tensor headers and the
evaluation raised the same SD303 again, word for word, from its own map checks: one root cause
reported twice. Now the evaluation drops the lines the configs step said (as the vocab step
does), and still says them when no configs step said them."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, eval_step  # noqa: E402
from spec_debug.probes import drafter_eval, model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import V, save_informative_world  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}
SD303_LINES = [
    f"t2d has {V} entries, the target vocab is {V + 44} (t2d and embed_tokens agree on a {V}-token "
    f"vocabulary: the draft was built for another target or revision than this {V + 44}-token one; "
    "pass the target it was trained on as --var target_model, or train the draft for this one)",
    f"embed_tokens has {V} rows, the target vocab is {V + 44} (the vocabulary t2d has: see that line)"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h73-eval-vocab-once"), seed=1)
    path = root / "target" / "config.json"
    config = json.loads(path.read_text())
    config["vocab_size"] = V + 44
    path.write_text(json.dumps(config, indent=2))
    return root


def _eval(root):
    return eval_step.parse(drafter_eval.run({
        "draft_model": str(root / "draft"), "target_model": str(root / "target"),
        "hidden_states": str(root / "data"), "claimed_accuracy": "0.69"}))


def _sd303(findings):
    return [(f.severity, f.evidence) for f in findings if f.code == "SD303"]


def test_the_configs_steps_sd303_is_not_said_again_by_the_evaluation(world):
    facts = configs_step.parse(model_configs.run({"draft_model": str(world / "draft"),
                                                  "target_model": str(world / "target")}))
    configs = configs_step.check(context(facts, VLLM))
    assert _sd303(configs) == [("error", SD303_LINES)]
    after = eval_step.check(context(_eval(world), {**VLLM, **facts}))
    assert _sd303(after) == []


def test_without_a_configs_step_the_evaluation_still_says_it(world):
    assert _sd303(eval_step.check(context(_eval(world), VLLM))) == [("error", SD303_LINES)]
