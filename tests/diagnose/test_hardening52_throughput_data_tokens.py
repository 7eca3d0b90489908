"""The throughput model's accept length predicted from acceptance scored against the dump's
next tokens (reference "data_tokens": the drafter evaluation read no target head, e.g. the
playbook run without --var target_model and a draft whose config names no verifier here).

A server verifies drafts against the target's own argmax; a dump's replies need not be the
target's. The throughput step fed those rates to the chain prediction as the server's, and
SD502 fired as an error sending the user to the serving path. Now SD502 says so and is a
warning, and the model's notes carry the line. The eval is the real drafter's, on a world
speculators 0.9.0 saved; the server log is SGLang's decode line."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.perf import DATA_TOKENS_PREDICTION  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.diagnose.test_hardening52_throughput_every_position import _throughput  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def against_data(tmp_path_factory):
    """The informative world's dump scored with no target (find_verifier off): its reference
    is the data's next tokens."""
    world = save_informative_world(tmp_path_factory.mktemp("h52_data_tokens"), seed=52)
    report = evaluate_drafter(world / "draft", world / "data", None, steps=2, find_verifier=False)
    assert report["reference"] == "data_tokens"
    return report


def test_a_prediction_from_data_tokens_says_so(against_data):
    # the world's data tokens are random ids: rates of a draft that hits a dump's replies
    report = dict(against_data, conditional_accuracy=[0.8, 0.7])
    findings, facts = _throughput(report, "1.05")
    sd502 = findings["SD502"]
    assert sd502.severity == "warning"
    assert DATA_TOKENS_PREDICTION in sd502.evidence
    assert DATA_TOKENS_PREDICTION in facts["model"]["notes"]


def test_a_prediction_from_the_target_argmax_says_nothing_of_it(against_data):
    report = dict(against_data, reference="target_argmax", loss_mask_source="file",
                  target_conditional_acceptance=[0.8, 0.7])
    findings, facts = _throughput(report, "1.05")
    assert findings["SD502"].severity == "error"
    assert DATA_TOKENS_PREDICTION not in facts["model"]["notes"]
