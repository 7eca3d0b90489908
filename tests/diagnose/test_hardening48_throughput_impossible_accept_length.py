"""A server log whose accept length is above what the audited settings can give.

A round accepts at most the verified drafted tokens plus the target's own token, so at
`--speculative-num-steps 1` (INCIDENT.md) the accept length is at most 2.0. A log of 3.40 was
taken on other settings (another run, another server), yet SD501 read "accept length in the
server log: 3.40 at 1 step(s)" and the model inferred a draft cost of 4.58 from it. The number
is now set aside with an SD004 that says why, as a log accept length below 1 already is.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE

REFERENCE = {"steps": 5, "reference": "target_argmax",
             "target_conditional_acceptance": [0.8, 0.7, 0.6, 0.5, 0.4]}
ONE_STEP = {"engine": "sglang", "effective": {"num_steps": 1, "topk": 1, "num_draft_tokens": 2}}


def _check(accept_len: str):
    lines = [DECODE.format(i=i).replace("accept len: 1.80", f"accept len: {accept_len}") for i in range(3)]
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": ONE_STEP, "eval": {"reference": REFERENCE}, **facts})
    return throughput_step.check(ctx), ctx.facts["throughput"]


def test_an_accept_length_above_steps_plus_one_is_not_used():
    findings, facts = _check("3.40")
    [note] = [f for f in findings if f.code == "SD004"]
    assert note.evidence == ["the log's accept length 3.4 is above 2, the most a round verifying 1 drafted "
                             "token(s) can give: the log and the audited settings are not of the same server; "
                             "not used"]
    assert facts["observed_accept_length"] is None
    assert facts["model"]["implied_draft_cost_ratio"] is None
    [sd501] = [f for f in findings if f.code == "SD501"]
    assert not any("3.40" in line for line in sd501.evidence)


def test_the_cap_itself_is_a_possible_accept_length():
    findings, facts = _check("2.00")
    assert "SD004" not in [f.code for f in findings]
    assert facts["observed_accept_length"] == 2.0
