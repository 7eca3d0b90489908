"""With no launch command and no startup line in the server log, the throughput model ran at
an assumed step count (the drafter's trained 5) and still inferred the draft cost from the
measured tok/s: SD503 said "c = 0.391 (measured: AL x baseline / measured tok/s = 1 + K*c)"
with K = 5 that nobody read, and warned that speculation cannot pay off (at K = 1 the same
numbers give c = 1.96). No cost is inferred from a K the server is not known to have run."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE, STARTUP

REFERENCE = {"steps": 5, "reference": "target_argmax",
             "target_conditional_acceptance": [0.8, 0.7, 0.6, 0.5, 0.4]}


def _check(lines: list[str]) -> tuple[dict, list]:
    # SGLang Decode batch lines (sgl-project/sglang#11948's format): 54.8 tok/s, accept len 1.80
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": {}, "eval": {"reference": REFERENCE}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={**host, **facts})
    findings = throughput_step.check(ctx)
    return facts["throughput"], findings


def test_no_cost_is_measured_at_an_assumed_step_count():
    tp, findings = _check([DECODE.format(i=i) for i in range(3)])
    assert tp["served_steps"] is None
    assert tp["model"]["implied_draft_cost_ratio"] is None
    assert not any(f.code == "SD503" for f in findings)  # was: c = 0.391 "measured" at K = 5
    assert any(note.startswith("the served steps are unknown") for note in tp["model"]["notes"])


def test_the_served_steps_from_the_startup_line_still_give_a_measured_cost():
    tp, _ = _check([STARTUP] + [DECODE.format(i=i) for i in range(3)])
    assert tp["served_steps"] == 1
    # 1.80 x 90 / 54.8 = 2.956 = 1 + 1 * c
    assert abs(tp["model"]["implied_draft_cost_ratio"] - 1.956) < 0.01
    assert not any(note.startswith("the served steps are unknown") for note in tp["model"]["notes"])
