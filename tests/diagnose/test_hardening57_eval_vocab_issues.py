"""The drafter_accuracy playbook (one drafter_eval step, no vocab step) on a draft whose d2t
speculators saved and a later edit cut one entry short: the evaluation found it (its
vocab_issues: SD302, vLLM refuses such a d2t) and scored target acceptance 0 at every
position beside a full accuracy of 0.69, but the step read neither and the run said PASSED.
The step now raises the map's code when no vocab step on the host said it; with a vocab step
before it (perf_regression) it is said there once. The world is saved by speculators 0.9.0
(tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("h57-eval-vocab"), seed=1)


def _cut_d2t(root):
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    tensors["d2t"] = tensors["d2t"][:-1].clone()
    save_file(tensors, str(path), metadata={"format": "pt"})


def _run(world):
    return drafter_eval.run({"draft_model": str(world / "draft"), "target_model": str(world / "target"),
                             "hidden_states": str(world / "data"), "claimed_accuracy": "0.69"})


def test_a_short_d2t_is_raised_by_the_eval_step_alone(world, tmp_path):
    import shutil

    root = tmp_path / "w"
    shutil.copytree(world, root)
    _cut_d2t(root)
    out = _run(root)
    assert out["reference"]["target_acceptance"] == [0.0, 0.0, 0.0]
    findings = eval_step.check(context(eval_step.parse(out)))
    [sd302] = [f for f in findings if f.code == "SD302"]
    assert sd302.severity == "error"
    assert "d2t has 127 entries, draft vocab is 128" in sd302.evidence[0], sd302.evidence
    # after a vocab step on the host, said there once
    after_vocab = eval_step.check(context(eval_step.parse(out), {"vocab": {"raised": ["SD302"]}}))
    assert not [f for f in after_vocab if f.code == "SD302"]


def test_sound_maps_raise_nothing(world):
    findings = eval_step.check(context(eval_step.parse(_run(world))))
    assert not [f for f in findings if f.code in ("SD301", "SD302", "SD303")], findings
