"""The throughput model without a launch command: the server log's startup line says what the
server runs (SGLang ``server_args=...``, vLLM ``speculative_config=SpeculativeConfig(...)``),
so the model is computed for the served steps instead of a guess of 1."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext

# The shape of SGLang's startup line (python/sglang/srt/server_args.py, printed by
# launch_server as "server_args=ServerArgs(...)"), cut to the fields that matter here, then
# Decode batch lines of sgl-project/sglang#11948's format.
STARTUP = ("[2026-10-30 12:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
           "speculative_algorithm='EAGLE3', speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', "
           "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=2, tp_size=1)")
DECODE = ("[2026-10-30 12:01:0{i} TP0] Decode batch. #running-req: 1, #token: 400, token usage: 0.00, accept len: 1.80, "
          "accept rate: 0.80, cuda graph: True, gen throughput (token/s): 54.8, #queue-req: 0, ")


def _check(lines: list[str], launch: dict) -> dict:
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": launch, "eval": {"reference": {"steps": 5, "reference": "target_argmax",
                                                     "target_conditional_acceptance": [0.8, 0.7, 0.6, 0.5, 0.4]}}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**host, **facts})
    throughput_step.check(ctx)
    return facts["throughput"]


def test_the_startup_line_gives_the_served_steps_when_no_command_was_read():
    tp = _check([STARTUP] + [DECODE.format(i=i) for i in range(3)], launch={})
    assert tp["served_steps"] == 1
    # the standalone prediction is made at the served depth: one drafted token, accepted at 0.8
    assert tp["predicted_accept_length_reference"] == 1.8
    assert any("from the server log's startup line" in note for note in tp["model"]["notes"])


def test_an_audited_command_wins_over_the_log():
    launch = {"engine": "sglang", "effective": {"num_steps": 3, "topk": 1, "num_draft_tokens": 4}}
    tp = _check([STARTUP] + [DECODE.format(i=i) for i in range(3)], launch=launch)
    assert tp["served_steps"] == 3
    assert not any("startup line" in note for note in tp["model"]["notes"])


def test_without_either_nothing_is_assumed():
    tp = _check([DECODE.format(i=i) for i in range(3)], launch={})
    assert tp["served_steps"] is None and tp["predicted_accept_length_reference"] is None
