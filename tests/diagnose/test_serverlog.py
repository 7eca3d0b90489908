"""Server-log parsing on lines quoted from public issues."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.serverlog import parse_server_log

# https://github.com/sgl-project/sglang/issues/11948 (EAGLE-3 on SGLang, first lines of the log)
SGLANG_11948 = """\
[2025-10-22 10:27:56 TP0] Prefill batch. #new-seq: 1, #new-token: 28, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0, 
[2025-10-22 10:27:57 TP0] Decode batch. #running-req: 1, #token: 108, token usage: 0.00, accept len: 2.17, accept rate: 0.54, cuda graph: True, gen throughput (token/s): 0.39, #queue-req: 0, 
[2025-10-22 10:27:57 TP0] Decode batch. #running-req: 1, #token: 186, token usage: 0.00, accept len: 1.95, accept rate: 0.49, cuda graph: True, gen throughput (token/s): 178.86, #queue-req: 0, 
[2025-10-22 10:27:58 TP0] Decode batch. #running-req: 1, #token: 258, token usage: 0.00, accept len: 1.80, accept rate: 0.45, cuda graph: True, gen throughput (token/s): 165.41, #queue-req: 0, 
[2025-10-22 10:27:58 TP0] Decode batch. #running-req: 1, #token: 340, token usage: 0.00, accept len: 2.05, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 188.68, #queue-req: 0, 
[2025-10-22 10:27:58 TP0] Decode batch. #running-req: 1, #token: 412, token usage: 0.00, accept len: 1.80, accept rate: 0.45, cuda graph: True, gen throughput (token/s): 165.59, #queue-req: 0, 
"""

# https://github.com/vllm-project/vllm/pull/24127 (test result)
VLLM_24127 = (
    "(APIServer pid=2236552) INFO 09-09 11:51:35 [metrics.py:96] SpecDecoding metrics: Draft "
    "acceptance rate: 88.8%, Mean acceptance length: 5.44, Accepted throughput: 4.37 tokens/s, "
    "Drafted throughput: 4.92 tokens/s, Accepted: 262 tokens, Drafted: 295 tokens, Per-position "
    "acceptance rate: 0.983, 0.949, 0.915, 0.881, 0.712\n"
)
# https://github.com/vllm-project/vllm/pull/15902 (the engine stats line)
VLLM_15902 = ("Engine 000: Avg prompt throughput: 1.1 tokens/s, Avg generation throughput: 10.0 tokens/s, "
              "Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%\n")

# https://github.com/vllm-project/vllm/pull/34552 (vllm bench serve summary, MTP = 1)
VLLM_BENCH_34552 = """\
============ Serving Benchmark Result ============
Successful requests:                     1000      
Failed requests:                         0         
Benchmark duration (s):                  347.89    
Total input tokens:                      274740    
Total generated tokens:                  1024000   
Request throughput (req/s):              2.87      
Output token throughput (tok/s):         2943.46   
Peak output token throughput (tok/s):    4012.00   
Peak concurrent requests:                1000.00   
Total token throughput (tok/s):          3733.19   
"""


def test_sglang_decode_batch_lines():
    s = parse_server_log(SGLANG_11948)
    assert s.engine == "sglang" and s.decode_lines == 5
    assert s.accept_length_mean == pytest.approx((2.17 + 1.95 + 1.80 + 2.05 + 1.80) / 5, abs=1e-4)
    assert (s.accept_length_min, s.accept_length_max) == (1.80, 2.17)
    assert s.accept_rate_mean == pytest.approx(0.488, abs=1e-4)
    # the median is robust to the warm-up line logged at 0.39 tok/s; the mean is not
    assert s.measured_tok_s == s.gen_tok_s_median == 165.59
    assert s.gen_tok_s_mean == pytest.approx((0.39 + 178.86 + 165.41 + 188.68 + 165.59) / 5, abs=1e-3)
    assert s.running_req_mean == 1.0


def test_vllm_spec_metrics_and_engine_lines():
    s = parse_server_log(VLLM_24127 + VLLM_15902 + VLLM_24127.replace("5.44", "3.00").replace("262", "100"))
    assert s.engine == "vllm" and s.spec_metric_lines == 2
    # weighted by drafts: 262/4.44 = 59.0 drafts at 5.44, 100/2 = 50 drafts at 3.00
    d1, d2 = 262 / 4.44, 100 / 2.0
    assert s.accept_length_mean == pytest.approx((5.44 * d1 + 3.0 * d2) / (d1 + d2), abs=1e-3)
    assert s.per_position_acceptance[0] == pytest.approx(0.983)
    assert (s.accepted_tokens, s.drafted_tokens) == (362, 590)
    assert s.gen_tok_s_median == 10.0


def test_vllm_per_position_reproduces_the_logged_mean():
    # vLLM: AL = 1 + sum(per-position rates) (EAGLE3.md section 7; vllm PR #42764: 2.359)
    s = parse_server_log(VLLM_24127)
    assert 1 + sum(s.per_position_acceptance) == pytest.approx(5.44, abs=0.01)


def test_bench_summary_wins_for_measured_throughput():
    s = parse_server_log(SGLANG_11948 + VLLM_BENCH_34552 + "Accept length:                           3.21\n")
    assert s.bench["output_tok_s"] == 2943.46 and s.bench["successful_requests"] == 1000
    assert s.measured_tok_s == 2943.46 and s.accept_length == 3.21


def test_unrelated_text_gives_empty_stats():
    s = parse_server_log("hello\nworld\n")
    assert s.engine is None and s.measured_tok_s is None and s.accept_length is None
    assert s.to_facts()["decode_lines"] == 0


def _as_dp_rank(log: str, rank: int, scale: float) -> str:
    """The 11948 lines as DP rank `rank` logs them under DP attention: SGLang puts
    " DP{rank} TP{tp} EP{ep}" in each scheduler's prefix (srt/managers/scheduler.py
    `get_print_prefix` / run_scheduler_process) and every DP rank logs its own share."""
    out = []
    for line in log.splitlines():
        line = line.replace(" TP0]", f" DP{rank} TP{rank} EP{rank}]")
        head, sep, tail = line.partition("gen throughput (token/s): ")
        if sep:
            value, rest = tail.split(",", 1)
            line = f"{head}{sep}{float(value) * scale:.2f},{rest}"
        out.append(line)
    return "\n".join(out) + "\n"


def test_data_parallel_ranks_are_summed_not_averaged():
    one = parse_server_log(SGLANG_11948)
    two = parse_server_log(_as_dp_rank(SGLANG_11948, 0, 1.0) + _as_dp_rank(SGLANG_11948, 1, 0.5))
    assert two.data_parallel_ranks == 2 and one.data_parallel_ranks == 1
    # each rank serves its own requests: the server's decode throughput is their sum
    assert two.measured_tok_s == pytest.approx(one.measured_tok_s * 1.5, abs=0.02)
    assert two.running_req_mean == 2.0
    # acceptance is a per-round quantity: still the mean over all lines
    assert two.accept_length_mean == pytest.approx(one.accept_length_mean, abs=1e-4)
    # a newer SGLang line with the forward iteration and the DP tag (LOG_FORWARD_ITERS)
    dp_iter = ("[2026-05-09 12:00:00 DP3 TP3 EP3] Decode batch [30123], #running-req: 29, #full token: 6200, "
               "accept len: 4.75, accept rate: 0.75, cuda graph: True, gen throughput (token/s): 500.0, #queue-req: 0\n")
    s = parse_server_log(dp_iter)
    assert (s.decode_lines, s.accept_length_mean, s.measured_tok_s) == (1, 4.75, 500.0)


def test_vllm_engines_of_a_data_parallel_server_are_summed():
    # vllm/v1/metrics/loggers.py: one LoggingStatLogger per engine, "Engine %03d: ..."
    engine1 = VLLM_15902.replace("Engine 000", "Engine 001").replace("10.0 tokens/s", "30.0 tokens/s")
    s = parse_server_log(VLLM_15902 + engine1)
    assert (s.data_parallel_ranks, s.measured_tok_s, s.decode_lines) == (2, 40.0, 2)
