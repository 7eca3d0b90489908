"""The throughput model for an SGLang tree served with `--speculative-num-draft-tokens 1`
(topk > 1, which SGLang keeps as written): the verify budget is the root alone, so no drafted
token is ever accepted. The model predicted the 3-step chain's 2.70 "at the served 3 step(s)",
as if the server verified what it drafts, and read the log's accept length of about 1 as a server
losing acceptance. It now predicts 1.00 for the 0 verified depths and says why.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_throughput_served_settings import DECODE

REFERENCE = {"steps": 5, "reference": "target_argmax",
             "target_conditional_acceptance": [0.8, 0.7, 0.6, 0.5, 0.4]}
ROOT_ONLY = {"engine": "sglang", "effective": {"num_steps": 3, "topk": 4, "num_draft_tokens": 1}}


def _run(launch: dict):
    facts = throughput_step.parse({"found": True, "path": "server.log",
                                   "lines": [DECODE.format(i=i) for i in range(3)],
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": launch, "eval": {"reference": REFERENCE}, **facts})
    return throughput_step.check(ctx), facts


def test_a_root_only_budget_predicts_an_accept_length_of_one():
    findings, facts = _run(ROOT_ONLY)
    [sd501] = [f for f in findings if f.code == "SD501"]
    [line] = [e for e in sd501.evidence if e.startswith("standalone drafter predicts")]
    assert line.startswith("standalone drafter predicts 1.00 for the 0 verified depth(s) of the served 3 step(s)")
    throughput = next(v for v in facts.values() if isinstance(v, dict) and "model" in v)
    assert throughput["predicted_accept_length_reference"] == 1.0
    assert ("3 steps are drafted but only the root is verified (1 draft token): no round accepts a drafted "
            "token, so the prediction is an accept length of 1") in throughput["model"]["notes"]


def test_a_budget_of_two_keeps_its_one_verified_depth():
    _, facts = _run({"engine": "sglang", "effective": {"num_steps": 3, "topk": 4, "num_draft_tokens": 2}})
    throughput = next(v for v in facts.values() if isinstance(v, dict) and "model" in v)
    assert round(throughput["predicted_accept_length_reference"], 2) == 1.8
