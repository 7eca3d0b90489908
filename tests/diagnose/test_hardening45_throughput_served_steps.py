"""SD501's acceptance line wrote the served step count as it came: with no launch command and
no startup line in the server log it read "accept length in the server log: 1.80 at None
step(s)", and with settings of 0 draft steps "at 0 step(s)", as if the accept length were
measured at zero drafted tokens. It now says the steps are unknown, or that settings of 0 steps
draft nothing while the log measured speculative rounds."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE, STARTUP

REFERENCE = {"steps": 5, "reference": "target_argmax",
             "target_conditional_acceptance": [0.8, 0.7, 0.6, 0.5, 0.4]}


def _sd501_evidence(lines: list[str], launch: dict) -> list[str]:
    # SGLang Decode batch lines (sgl-project/sglang#11948's format): 54.8 tok/s vs 90 without
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": launch, "eval": {"reference": REFERENCE}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={**host, **facts})
    [sd501] = [f for f in throughput_step.check(ctx) if f.code == "SD501"]
    return [line for line in sd501.evidence if line.startswith("accept length in the server log")]


def test_unknown_served_steps_are_said_unknown_not_none():
    [line] = _sd501_evidence([DECODE.format(i=i) for i in range(3)], launch={})
    assert "None" not in line
    assert line == ("accept length in the server log: 1.80 (served steps unknown: no launch "
                    "command or startup line of the server says them)")


def test_zero_steps_are_said_to_draft_nothing():
    launch = {"engine": "sglang", "effective": {"num_steps": 0, "topk": 1, "num_draft_tokens": 4}}
    [line] = _sd501_evidence([DECODE.format(i=i) for i in range(3)], launch=launch)
    assert "at 0 step(s)" not in line
    assert "0 draft steps, i.e. speculation off, yet the log measured speculative rounds" in line


def test_known_steps_keep_the_count():
    [line] = _sd501_evidence([STARTUP] + [DECODE.format(i=i) for i in range(3)], launch={})
    assert line == "accept length in the server log: 1.80 at 1 step(s)"


def _prediction_line(launch: dict) -> str:
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": launch, "eval": {"reference": REFERENCE}, **facts})
    [sd501] = [f for f in throughput_step.check(ctx) if f.code == "SD501"]
    [line] = [e for e in sd501.evidence if e.startswith("standalone drafter predicts")]
    return line


def test_a_prediction_cut_to_the_verified_depth_says_so():
    # SGLang --speculative-num-steps 5 --speculative-eagle-topk 4 --speculative-num-draft-tokens 3:
    # no path deeper than 2 is verified, so the chain is predicted for 2 (2.36, not 5's 2.93);
    # the line read "predicts 2.36 at the served 5 step(s)"
    launch = {"engine": "sglang", "effective": {"num_steps": 5, "topk": 4, "num_draft_tokens": 3}}
    line = _prediction_line(launch)
    assert line.startswith("standalone drafter predicts 2.36 for the 2 verified depth(s) of the "
                           "served 5 step(s)"), line
    chain = {"engine": "sglang", "effective": {"num_steps": 3, "topk": 1, "num_draft_tokens": 4}}
    assert _prediction_line(chain).startswith("standalone drafter predicts 2.70 at the served 3 step(s)")
