"""`vllm bench serve`'s Speculative Decoding section: per-position acceptance and draft counts.

vllm-project/vllm vllm/benchmarks/serve.py prints, from the deltas of the server's /metrics
counters over the run, `Drafts:`, `Draft tokens:`, `Accepted tokens:` and a `Per-position
acceptance (%):` block (`  Position 0: 83.42`, accepted at that position / drafts x 100, each
value padded by its `{:<10.2f}` format). The reader took only its `Acceptance length:`; the
per-position rates and the counts (the ones vLLM's SpecDecoding lines give) were left out.
The numbers below are a published run's (Qwen3.8-27B-FP8, MTP 3, two RTX PRO 4000), laid out
as serve.py prints them.
"""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log

SUMMARY = """============ Serving Benchmark Result ============
Successful requests:                     20        
Failed requests:                         0         
Maximum request concurrency:             1         
Output token throughput (tok/s):         76.73     
---------------Inter-token Latency----------------
Mean ITL (ms):                           40.50     
Median ITL (ms):                         40.50     
P99 ITL (ms):                            41.16     
---------------Speculative Decoding---------------
Acceptance rate (%):                     73.47     
Acceptance length:                       3.20      
Drafts:                                  6393      
Draft tokens:                            19179     
Accepted tokens:                         14090     
Per-position acceptance (%):
  Position 0:                            83.42     
  Position 1:                            72.91     
  Position 2:                            64.07     
==================================================
"""


def test_per_position_rates_and_counts_are_read():
    stats = parse_server_log(SUMMARY)
    assert stats.per_position_acceptance == [0.8342, 0.7291, 0.6407]
    assert (stats.accepted_tokens, stats.drafted_tokens) == (14090, 19179)
    assert stats.accept_length == 3.2  # 1 + sum of the per-position rates, as printed


def test_the_last_of_two_summaries_and_an_unpadded_paste():
    earlier = SUMMARY.replace("83.42", "50.00").replace("14090", "9000")
    pasted = ("Acceptance length: 3.06\nDraft tokens: 900\nAccepted tokens: 620\n"
              "Per-position acceptance (%):\nPosition 0: 76.56\nPosition 1: 68.76\nPosition 2: 61.10\n")
    stats = parse_server_log(earlier + pasted)
    assert stats.per_position_acceptance == [0.7656, 0.6876, 0.611]
    assert (stats.accepted_tokens, stats.drafted_tokens) == (620, 900)


def test_metric_lines_win_over_the_summary():
    log = ("INFO 08-20 10:00:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.00, Accepted "
           "throughput: 1.0 tokens/s, Drafted throughput: 1.0 tokens/s, Accepted: 100 tokens, Drafted: 300 tokens, "
           "Per-position acceptance rate: 0.600, 0.300, 0.100, Avg Draft acceptance rate: 33.3%\n")
    stats = parse_server_log(log + SUMMARY)
    assert stats.per_position_acceptance == [0.6, 0.3, 0.1] and stats.accepted_tokens == 100
