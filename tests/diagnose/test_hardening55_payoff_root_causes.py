"""SD503 ("speculation cannot pay off here even at the measured acceptance") beside the error
that lowered that acceptance.

The layout probe's norm_before_residual measurement (SD704: the config's flag contradicts the
weights, step-0 accuracy 0.690 with the other flag against 0.095 with the config's) explains a
low standalone acceptance; the throughput step still judged payoff at that acceptance and
warned that "no amount of debugging will make it pay". SD502 already became info, "explained
by", under such causes; SD503 now does too: for the standalone acceptance, the causes that
lower the evaluation (SD704, SD402, SD302/SD303); for the server's, every serving-path cause.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE, STARTUP

# served at 1 step (STARTUP), 54.8 tok/s against 90, log accept length 1.80: c = 1.956, and
# break-even at one step needs an accept length above 2.96
REFERENCE = {"steps": 1, "reference": "target_argmax", "target_conditional_acceptance": [0.9]}


def _payoff(reference=REFERENCE, **raised_by_step: list[str]):
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [STARTUP] + [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": {}, "eval": {"reference": reference} if reference else {},
            **{step: {"raised": codes} for step, codes in raised_by_step.items()}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**host, **facts})
    [found] = [f for f in throughput_step.check(ctx) if f.code == "SD503"]
    return found


def test_without_root_causes_sd503_is_the_catalog_warning():
    found = _payoff()
    assert found.severity == "warning"
    assert found.facts["best_accept_length"] == 1.9
    assert "root_causes" not in found.facts


def test_a_config_its_weights_contradict_makes_sd503_info_naming_it():
    found = _payoff(configs=["SD704"])
    assert found.severity == "info"
    assert found.facts["root_causes"] == ["SD704"]
    assert found.title == "Speculation does not pay off at an acceptance the root causes above lower"
    assert found.evidence[-1] == ("that acceptance was measured under SD704, which lower it: explained by SD704 "
                                  "(reported as the root cause); shown as info")


def test_a_serving_flag_does_not_excuse_the_standalone_acceptance():
    # --speculative-num-steps 1 (SD101) caps what the server drafts, not what the evaluation measured
    found = _payoff(launch_audit=["SD101"])
    assert found.severity == "warning"
    assert "root_causes" not in found.facts


def test_without_an_evaluation_the_servers_acceptance_is_excused_by_serving_path_causes():
    # no standalone evaluation: payoff is judged at the log's 1.80, which served layers that
    # differ from the trained ones (SD201) lower
    found = _payoff(reference=None, layers=["SD201"])
    assert found.facts["best_accept_length"] == 1.8
    assert found.severity == "info" and found.facts["root_causes"] == ["SD201"]
