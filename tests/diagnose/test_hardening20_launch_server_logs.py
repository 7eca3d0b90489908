"""Server logs as they reach us from issues and reports (session 11):

- a log copied from a rendered issue page runs its records together: vLLM's stats line and its
  SpecDecoding line became one, and the line was read as SpecDecoding only (no generation
  throughput, no running requests), so the throughput checks had nothing to compare;
- an SGLang Decode batch line wrapped for width put `accept len:` on the next line, which was
  dropped (a decode line with no acceptance).
"""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log

# https://github.com/vllm-project/vllm/issues/25368 (vLLM 0.10.2, Qwen3-Next with MTP), the body
# as the rendered page gives it: the startup config and the log inline, on one line.
ISSUE_25368 = (
    "### Your current environment **vLLM Version**: 0.10.2 **Model**: Qwen3-Next **Hardware**: NVIDIA A800 GPUs "
    "**Startup Command**: The engine was configured with speculative decoding: "
    "`speculative_config=SpeculativeConfig(method='qwen3_next_mtp', model='/model', num_spec_tokens=2) # <-- CRASH "
    "CONDITION` **Other Relevant Config:** tensor_parallel_size=4 max_seq_len=131072 ### 🐛 Describe the bug I'm "
    "experiencing a consistent and fatal crash when running the Qwen3-Next model on NVIDIA A800 GPUs using vLLM. "
    "**Error info：** `Engine 000: Avg prompt throughput: 108.0 tokens/s, Avg generation throughput: 138.7 tokens/s, "
    "Running: 128 reqs, Waiting: 0 reqs, GPU KV cache usage: 19.8%, Prefix cache hit rate: 0.0% SpecDecoding metrics: "
    "Mean acceptance length: 2.25, Accepted throughput: 76.61 tokens/s,...")


def test_vllm_stats_and_spec_decoding_run_together_are_both_read():
    stats = parse_server_log(ISSUE_25368)
    assert stats.accept_length_mean == 2.25
    # before: None and None (the one line was taken for the SpecDecoding record only)
    assert (stats.gen_tok_s_mean, stats.running_req_mean) == (138.7, 128.0)
    assert stats.served["algorithm"] == "QWEN3_NEXT_MTP" and stats.served["num_steps"] == 2


def test_records_on_separate_lines_read_the_same():
    lines = ISSUE_25368[ISSUE_25368.index("Engine 000"):].replace(" SpecDecoding", "\nSpecDecoding")
    stats = parse_server_log(lines)
    assert (stats.accept_length_mean, stats.gen_tok_s_mean, stats.decode_lines, stats.spec_metric_lines) == (
        2.25, 138.7, 1, 1)


# A public SGLang PD-disaggregation deployment report (GitHub code index): the decode server's
# line, wrapped for width in the report.
WRAPPED_DECODE = """```
Decode batch, #running-req: 32, #token: 90304, token usage: 0.03,
accept len: 3.82, accept rate: 0.56, cuda graph: True,
gen throughput (token/s): 3445.55, #queue-req: 0
```"""


def test_a_wrapped_sglang_decode_line_keeps_its_acceptance():
    stats = parse_server_log(WRAPPED_DECODE)
    # before: accept length None, throughput None (only `#running-req` was on the first line)
    assert (stats.decode_lines, stats.accept_length_mean, stats.accept_rate_mean, stats.gen_tok_s_mean) == (
        1, 3.82, 0.56, 3445.55)


def test_data_parallel_tags_stay_with_their_records():
    text = ("[2025-05-27 20:14:38 DP0 TP0] Decode batch. #running-req: 18, accept len: 2.40, gen throughput "
            "(token/s): 100.0, #queue-req: 3 [2025-05-27 20:14:38 DP1 TP8] Decode batch. #running-req: 18, "
            "accept len: 2.60, gen throughput (token/s): 120.0, #queue-req: 3")
    stats = parse_server_log(text)
    assert stats.data_parallel_ranks == 2 and stats.gen_tok_s_mean == 220.0 and stats.accept_length_mean == 2.5
