"""A TPOT baseline against a benchmark that decoded one request at a time (review of round 25).

The round-25 scope rule refuses to set a TPOT baseline (one request's rate) against a summary's
all-requests output throughput when the summary has no Mean TPOT and no `Maximum request
concurrency: 1`. Two one-stream runs were refused with it although their throughput is one
stream's rate and compared before: sglang bench_one_batch_server at `batch size: 1`
(python/sglang/bench_one_batch_server.py) and a single request (`vllm bench serve
--num-prompts 1 --request-rate inf`, whose concurrency line reads `None`)."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext

# bench_one_batch_server's per-run lines, speculative server
ONE_BATCH = ["batch size: 1", "latency: 2.51 s", "output throughput: 201.57 tok/s", "acc_length: 3.10"]

# vllm bench serve (vllm/benchmarks/serve.py) of one prompt, pasted without the TPOT block
ONE_REQUEST = """============ Serving Benchmark Result ============
Successful requests:                     1
Maximum request concurrency:             None
Benchmark duration (s):                  2.10
Output token throughput (tok/s):         121.90
==================================================""".splitlines()


def _parse(lines: list[str]) -> tuple[dict, list]:
    facts = throughput_step.parse({"args": {"baseline_tok_s": "11.1 ms/tok"}, "lines": lines, "found": True})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return facts, throughput_step.check(ctx)


def test_a_one_batch_run_of_batch_size_one_compares_with_a_tpot_baseline():
    facts, findings = _parse(ONE_BATCH)
    assert facts["measured_tok_s"] == 201.57 and "scope" not in facts["throughput"]["var_problems"]
    assert not any("not compared" in e for f in findings for e in f.evidence)


def test_a_single_request_run_compares_with_a_tpot_baseline():
    facts, _ = _parse(ONE_REQUEST)
    assert facts["measured_tok_s"] == 121.9 and "scope" not in facts["throughput"]["var_problems"]


def test_a_batch_of_sixteen_is_still_not_compared():
    facts, _ = _parse([line.replace("batch size: 1", "batch size: 16") for line in ONE_BATCH])
    assert "measured_tok_s" not in facts and "scope" in facts["throughput"]["var_problems"]
