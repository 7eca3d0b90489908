"""vLLM's idle stat lines do not count as requests at once (round 25, from the engines review).

vLLM's engine logs its stats every 10 s, idle or not (vllm/v1/metrics/loggers.py LoggingStatLogger):
`Avg generation throughput: 0.0 tokens/s, Running: 0 reqs`. Those zeros went into the mean of
requests at once, so a 16-way run with long idle stretches averaged under 1.5 and its summed
1100 tok/s was set against a one-stream TPOT baseline: 12x faster, a slowdown missed. The running
mean is now taken over the lines that decoded, as SGLang logs decode lines only while decoding."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext


def _stat_line(second: int, tok_s: float, running: int) -> str:
    return (f"INFO 11-30 10:{second // 60:02d}:{second % 60:02d} [loggers.py:123] Engine 000: Avg prompt throughput: "
            f"0.0 tokens/s, Avg generation throughput: {tok_s} tokens/s, Running: {running} reqs, "
            f"Waiting: 0 reqs, GPU KV cache usage: 2.0%, Prefix cache hit rate: 0.0%")


IDLE_THEN_BUSY = [_stat_line(10 * i, 0.0, 0) for i in range(60)] + [_stat_line(600 + 10 * i, 1100.0, 16) for i in range(6)]


def test_idle_lines_do_not_lower_the_running_mean():
    stats = parse_server_log("\n".join(IDLE_THEN_BUSY))
    assert stats.running_req_mean == 16.0 and stats.gen_tok_s_mean == 1100.0


def test_a_busy_16_way_log_is_not_set_against_a_tpot_baseline():
    facts = throughput_step.parse({"args": {"baseline_tok_s": "11.1 ms/tok"}, "lines": IDLE_THEN_BUSY, "found": True})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    findings = throughput_step.check(ctx)
    assert "measured_tok_s" not in facts
    assert any("16 at once on average" in e for f in findings if f.code == "SD004" for e in f.evidence)
