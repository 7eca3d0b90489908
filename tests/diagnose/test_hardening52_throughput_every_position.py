"""The throughput model's accept length predicted from acceptance scored at every position.

A speculators 0.9 dump evaluated away from its prepared dataset (or any dump whose files carry
no loss_mask) is scored at every position, prompt and chat-template tokens included
(loss_mask_source "none"); SD401 already says so. The throughput step then fed those rates
to the chain prediction as if they were the server's: SD502 ("the serving path loses
acceptance the weights have") fired as an error on a gap that may be the positions counted,
and the prediction in SD501 and the model said nothing of it. Now SD502 says so and is a
warning, and the model's notes and SD501's numbers carry the same line. The eval is the real
drafter's, on a world speculators 0.9.0 saved; the server log is SGLang's decode line."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.perf import EVERY_POSITION_PREDICTION  # noqa: E402
from spec_debug.diagnose.steps import eval_step, throughput_step  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.test_throughput_served_settings import DECODE  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

SERVED = {"engine": "sglang", "effective": {"num_steps": 2, "topk": 1, "num_draft_tokens": 3}}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    """The real eval of the informative world's dump (hs files, no loss_mask): scored at every
    position."""
    world = save_informative_world(tmp_path_factory.mktemp("h52_every_position"), seed=52)
    report = evaluate_drafter(world / "draft", world / "data", world / "target", steps=2)
    assert report["loss_mask_source"] == "none"
    return report


def _throughput(report: dict, accept_len: str):
    lines = [DECODE.format(i=i).replace("accept len: 1.80", f"accept len: {accept_len}") for i in range(3)]
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    evals = eval_step.parse({"reference": report})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": SERVED, **evals, **facts})
    return {f.code: f for f in throughput_step.check(ctx)}, ctx.facts["throughput"]


def test_a_prediction_from_every_position_says_so(evaluated):
    predicted = evaluated["expected_accept_length"]
    assert predicted > 1.5, predicted  # the world's draft hits: a gap to a 1.0x log
    findings, facts = _throughput(evaluated, "1.05")
    sd502 = findings["SD502"]
    assert sd502.severity == "warning"  # was an error sending the user to the serving path
    assert EVERY_POSITION_PREDICTION in sd502.evidence
    assert EVERY_POSITION_PREDICTION in facts["model"]["notes"]
    assert EVERY_POSITION_PREDICTION in findings["SD501"].evidence


def test_a_prediction_from_masked_positions_is_an_error_as_before(evaluated):
    masked = dict(evaluated, loss_mask_source="file")
    findings, facts = _throughput(masked, "1.05")
    assert findings["SD502"].severity == "error"
    assert EVERY_POSITION_PREDICTION not in findings["SD502"].evidence
    assert EVERY_POSITION_PREDICTION not in facts["model"]["notes"]
