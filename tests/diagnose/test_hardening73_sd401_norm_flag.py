"""A draft speculators 0.9.0 saved with norm_before_residual false whose config.json was later
set to true (as speculators' trainer defaults it, or a hand edit), run through drafter_accuracy
with the claimed validation accuracy. The evaluation scores 4.8% as configured and 69% with the
flag flipped. Before: SD401 said "4.8% against a claimed 69%" and sent the user to "check the
export ... retrain if the weights are bad", with no word of the flag the same step had measured
(its SD704 stood apart). Now SD401 carries the evaluation's note that the config's flag does not
fit the weights, as it carries the notes on a dump's slot order or ids."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def flipped(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h73-sd401-norm-flag"), seed=1)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    assert config["norm_before_residual"] is False  # as speculators saved it
    config["norm_before_residual"] = True
    path.write_text(json.dumps(config, indent=2))
    return root


def test_sd401_names_the_norm_flag_the_evaluation_found(flipped):
    out = drafter_eval.run({"draft_model": str(flipped / "draft"), "target_model": str(flipped / "target"),
                            "hidden_states": str(flipped / "data"), "claimed_accuracy": "0.69"})
    findings = eval_step.check(context(eval_step.parse(out), {"engine": {"name": "vllm", "version": "0.12.0"}}))
    [sd401] = [f for f in findings if f.code == "SD401"]
    assert sd401.evidence[:2] == ["claimed validation accuracy (position 0): 69.0%",
                                  "standalone full_accuracy[0] = 4.8% on 42 rows (3 samples of 45 tokens: "
                                  "a sample of T tokens has T - 1 rows) (reference: target_argmax)"]
    [flag] = [line for line in sd401.evidence if "norm_before_residual" in line]
    assert flag.startswith("config.json's norm_before_residual=true does not fit these weights: the "
                           "configured layout's step-0 accuracy is 0.690 with false vs 0.048 with true; "
                           "set it to false in config.json"), flag
    # the step's own SD704 for the flag is still raised beside it
    assert [f.code for f in findings if f.code == "SD704"] == ["SD704"]
