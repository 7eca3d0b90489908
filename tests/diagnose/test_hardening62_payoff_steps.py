"""SD503 judges the best accept length the draft reaches against the break-even accept length
1 + K*c. When the server log's accept length (measured at the served steps) was the larger one,
it was judged at the evaluation's trained steps instead: a server at --speculative-num-steps 1
(the incident's setting; accept len 1.50 and 120 tok/s against a 90 tok/s baseline) beside a standalone
evaluation of 7 TTT steps that scored lower read "at 7 step(s) break-even needs accept length
> 1 + K*c = 1.70; the best accept length this draft reaches is 1.50": a draft that pays off at
the steps it was measured at (and measured 1.33x faster) was called unable to pay off at all.
It is now judged at the steps it was measured at, with the cost measured there."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import STARTUP

# SGLang Decode batch lines at --speculative-num-steps 1 (STARTUP), accept len 1.50; the
# baseline is 90 tok/s
DECODE = ("[2026-10-30 12:01:0{i} TP0] Decode batch. #running-req: 1, #token: 400, token usage: 0.00, "
          "accept len: 1.50, accept rate: 0.50, cuda graph: True, gen throughput (token/s): {tok_s}, "
          "#queue-req: 0, ")
C = 0.1  # the draft cost the configs give (monkeypatched: the step reads it from the configs)


def _findings(monkeypatch, reference: dict, tok_s: float = 120.0) -> list:
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: C)
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [STARTUP] + [DECODE.format(i=i, tok_s=tok_s) for i in range(3)],
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": {}, "eval": {"reference": reference}, **facts})
    return throughput_step.check(ctx)


def test_the_logs_accept_length_is_judged_at_the_served_steps(monkeypatch):
    # a weak standalone score (1 + 0.2 + 0.02 + ... = 1.22 at 7 steps) under the log's 1.50
    weak = {"steps": 7, "reference": "target_argmax",
            "target_conditional_acceptance": [0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]}
    found = _findings(monkeypatch, weak)
    # 1.50 at 1 step against a break-even of 1 + 1 * c, c = 1.5 * 90 / 120 - 1 = 0.125 measured
    # there: it pays off (as the 120 tok/s say), no SD503
    assert [f for f in found if f.code == "SD503"] == []
    assert [f.code for f in found if f.code == "SD501"] == []


def test_a_log_accept_length_under_the_served_break_even_is_still_sd503(monkeypatch):
    weak = {"steps": 7, "reference": "target_argmax",
            "target_conditional_acceptance": [0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]}
    # the incident's 54.8 tok/s: c = 1.5 * 90 / 54.8 - 1 = 1.464 measured at 1 step
    [sd503] = [f for f in _findings(monkeypatch, weak, tok_s=54.8) if f.code == "SD503"]
    assert sd503.facts["steps"] == 1 and sd503.facts["best_accept_length"] == 1.5
    assert abs(sd503.facts["break_even_accept_length"] - (1.5 * 90 / 54.8)) < 1e-9
    assert sd503.evidence[0].startswith("draft cost ratio c = 1.464 (measured: ")
    assert "at 1 step(s) break-even needs accept length > 1 + K*c = 2.46" in sd503.evidence[0]


def test_the_standalone_best_is_still_judged_at_its_trained_steps(monkeypatch):
    # a strong standalone score (0.9 per step) is the larger: judged at its 7 trained steps
    # with the weights' c (the measured one is of 1 step)
    strong = {"steps": 7, "reference": "target_argmax",
              "target_conditional_acceptance": [0.9] * 7}
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.9)
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [STARTUP] + [DECODE.format(i=i, tok_s=54.8) for i in range(3)],
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": {}, "eval": {"reference": strong}, **facts})
    [sd503] = [f for f in throughput_step.check(ctx) if f.code == "SD503"]
    # 1 + 7 * 0.9 = 7.30 > the chain's 1 + 0.9 + ... + 0.9**7 = 5.70
    assert sd503.facts["steps"] == 7 and sd503.facts["break_even_accept_length"] == 7.3
