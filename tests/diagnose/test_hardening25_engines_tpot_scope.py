"""A TPOT baseline is one request's rate; a benchmark's output throughput is all requests' (round 25).

`--var baseline_tok_s="11.1 ms/tok"` (the no-spec run's Mean TPOT, 90.1 tok/s for one stream)
was set against the log's `Output token throughput (tok/s)` of a 16-way `vllm bench serve` run,
the sum over 16 streams: 1050 tok/s read as 11.7x the baseline while each request decoded at
1000 / 13.9 ms = 71.9 tok/s, 0.80x, a real slowdown (SD501) missed. Now the summary's own Mean
TPOT is compared; without one (and more than one request at once) the two are not compared
and that is said once."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext

# vllm bench serve's summary (vllm/benchmarks/serve.py), speculative server, 16 at once
SUMMARY = """============ Serving Benchmark Result ============
Successful requests:                     200
Maximum request concurrency:             16
Benchmark duration (s):                  60.20
Output token throughput (tok/s):         1050.30
Total token throughput (tok/s):          2100.10
---------------Time per Output Token (excl. 1st token)---------------
Mean TPOT (ms):                          13.90
==================================================""".splitlines()


def _findings(lines: list[str], baseline: str = "11.1 ms/tok") -> tuple[dict, list]:
    facts = throughput_step.parse({"args": {"baseline_tok_s": baseline}, "lines": lines, "found": True})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return facts, throughput_step.check(ctx)


def test_a_tpot_baseline_is_set_against_the_summarys_mean_tpot():
    facts, findings = _findings(SUMMARY)
    assert round(facts["measured_tok_s"], 1) == 71.9 and round(facts["baseline_tok_s"], 1) == 90.1
    [slower] = [f for f in findings if f.code == "SD501"]
    assert "Mean TPOT 13.9 ms" in " ".join(slower.evidence)


def test_without_a_mean_tpot_the_two_scales_are_not_compared():
    facts, findings = _findings([line for line in SUMMARY if "TPOT" not in line])
    assert "measured_tok_s" not in facts and not [f for f in findings if f.code == "SD501"]
    lines = [e for f in findings if f.code == "SD004" for e in f.evidence]
    assert any("16 requests at once" in e and "not compared" in e for e in lines)


def test_a_tok_s_baseline_keeps_the_summarys_throughput():
    facts, _ = _findings(SUMMARY, baseline="1100 tok/s")
    assert facts["measured_tok_s"] == 1050.3


# SGLang scheduler decode lines (scheduler_metrics_mixin.py log_decode_stats), 16 requests running
DECODE = [f"[2026-11-30 10:00:{i:02d} TP0] Decode batch. #running-req: 16, #token: 20480, token usage: 0.10, "
          f"accept len: 2.10, cuda graph: True, gen throughput (token/s): 110{i}.5, #queue-req: 0" for i in range(5)]


def test_decode_lines_of_many_requests_are_not_set_against_a_tpot():
    facts, findings = _findings(DECODE)
    assert "measured_tok_s" not in facts and not [f for f in findings if f.code == "SD501"]
    assert any("16 at once on average" in e for f in findings if f.code == "SD004" for e in f.evidence)
    one = [line.replace("#running-req: 16", "#running-req: 1") for line in DECODE]
    assert _findings(one)[0]["measured_tok_s"] == 1102.5  # one stream: its rate, as before
