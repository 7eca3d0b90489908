"""Hardening 8: server logs where acceptance collapses part of the time.

Each test is a user story spec-debug got wrong before; the source of every input is cited.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.serverlog import parse_server_log

# vllm-project/vllm vllm/v1/spec_decode/metrics.py `SpecDecodingLogging.log`: one line per
# logging interval, AL = 1 + accepted / num_drafts. The first line is the one quoted in
# https://github.com/vllm-project/vllm/pull/24127 (K = 5: 295 drafted tokens are 59 drafts,
# 262 accepted / 59 = 4.44 + 1 = 5.44).
GOOD = ("(APIServer pid=2236552) INFO 09-09 11:51:35 [metrics.py:96] SpecDecoding metrics: Draft "
        "acceptance rate: 88.8%, Mean acceptance length: 5.44, Accepted throughput: 4.37 tokens/s, "
        "Drafted throughput: 4.92 tokens/s, Accepted: 262 tokens, Drafted: 295 tokens, Per-position "
        "acceptance rate: 0.983, 0.949, 0.915, 0.881, 0.712\n")
# The same server once prompts outgrow the draft's context (EAGLE3.md section 6, failure 8:
# sgl-project/sglang issue 6783, vllm-project/vllm issue 48894): every draft is rejected, and vLLM
# logs AL 1.00 with nothing accepted. 59 drafts again (295 tokens, K = 5).
COLLAPSED = ("(APIServer pid=2236552) INFO 09-09 11:52:35 [metrics.py:96] SpecDecoding metrics: Mean "
             "acceptance length: 1.00, Accepted throughput: 0.00 tokens/s, Drafted throughput: 4.92 tokens/s, "
             "Accepted: 0 tokens, Drafted: 295 tokens, Per-position acceptance rate: 0.000, 0.000, 0.000, "
             "0.000, 0.000, Avg Draft acceptance rate: 0.0%\n")


def test_an_interval_that_accepted_nothing_counts_for_its_drafts():
    s = parse_server_log(GOOD + COLLAPSED)
    # 59 drafts at 5.44 and 59 drafts at 1.00: the server accepted 262 tokens in 118 drafts
    assert s.accept_length_mean == pytest.approx(1 + 262 / 118, abs=0.01)
    assert s.per_position_acceptance[0] == pytest.approx(0.983 / 2, abs=1e-3)
    assert (s.accepted_tokens, s.drafted_tokens) == (262, 590)
    # a log of collapsed intervals alone is AL 1
    assert parse_server_log(COLLAPSED * 3).accept_length_mean == 1.0


def test_without_per_position_rates_the_tokens_per_draft_come_from_the_other_lines():
    # SpecDecoding lines as vLLM V1 logged them before it added the per-position rates (the
    # format of https://github.com/vllm-project/vllm/pull/15902 plus the mean acceptance length)
    old = "SpecDecoding metrics: Draft acceptance rate: {rate}%, Mean acceptance length: {al}, Accepted: {acc} tokens, Drafted: {dr} tokens\n"
    log = old.format(rate=88.8, al=5.44, acc=262, dr=295) + old.format(rate=0.0, al="1.00", acc=0, dr=295)
    assert parse_server_log(log).accept_length_mean == pytest.approx(1 + 262 / 118, abs=0.01)


# sgl-project/sglang python/sglang/bench_one_batch_server.py as in the sglang 0.5.3 wheel: it starts
# the server in-process (its Decode batch lines interleave), then prints per run `batch size`,
# `output throughput: X tok/s`, and a github table whose `acc length` column is the only place the
# accept length is (newer releases also print `acc_length: X`, sglang/benchmark/one_batch_server.py).
ONE_BATCH_0_5_3 = """\
[2025-10-06 12:00:01 TP0] Decode batch. #running-req: 1, #token: 1300, token usage: 0.01, accept len: 2.90, accept rate: 0.73, cuda graph: True, gen throughput (token/s): 150.20, #queue-req: 0, 
[2025-10-06 12:00:02 TP0] Decode batch. #running-req: 1, #token: 1420, token usage: 0.01, accept len: 3.30, accept rate: 0.83, cuda graph: True, gen throughput (token/s): 250.80, #queue-req: 0, 
batch size: 1
input_len: 1024
output_len: 256
latency: 1.32 s
ttft: 0.05 s
last generation throughput: 205.11 tok/s
input throughput: 20480.00 tok/s
output throughput: 201.57 tok/s

Input lens: 1024. Output lens: 256.
|   batch size |   latency (s) |   input throughput (tok/s) |   output throughput (tok/s) |   acc length |   ITL (ms) |   input cost ($/1M) |   output cost ($/1M) |
|--------------|---------------|----------------------------|-----------------------------|--------------|------------|---------------------|----------------------|
|            1 |          1.32 |                   20480.00 |                      201.57 |         3.21 |       4.96 |                0.04 |                 2.76 |
"""


def test_sglang_one_batch_benchmark_output_gives_throughput_and_accept_length(tmp_path):
    from spec_debug.diagnose.steps import throughput_step
    from spec_debug.probes import server_log

    log = tmp_path / "one_batch.log"
    log.write_text("[2025-10-06 11:59:00 TP0] Load weight end. type=LlamaForCausalLMEagle3\n" * 50 + ONE_BATCH_0_5_3)
    host = server_log.run({"server_log": str(log), "baseline_tok_s": "160"})
    facts = throughput_step.parse(host)["throughput"]
    # before: the median of the two decode lines (200.5 tok/s) and their mean accept length (3.10)
    assert facts["measured_tok_s"] == 201.57 and facts["measured_source"] == "benchmark summary in the server log"
    assert facts["log"]["accept_length"] == 3.21 and facts["log"]["bench"]["batch_size"] == 1
    newer = ONE_BATCH_0_5_3.split("\nInput lens")[0] + "\nlast_ttft: 0.05 s\nacc_length: 3.08 \n"
    assert parse_server_log(newer).accept_length == 3.08


# The Decode batch line of https://github.com/sgl-project/sglang/issues/11948, at two loads: a
# benchmark at concurrency 32, then its last request finishing alone. Each line's accept len
# averages its interval's rounds, one per running request per step (sglang
# python/sglang/srt/managers/scheduler_metrics_mixin.py `log_decode_stats`).
DECODE = ("[2025-10-22 10:27:{s:02d} TP0] Decode batch. #running-req: {n}, #token: 4000, token usage: 0.05, "
          "accept len: {al:.2f}, accept rate: {rate:.2f}, cuda graph: True, gen throughput (token/s): {tps:.2f}, "
          "#queue-req: 0, \n")


def test_sglang_accept_length_counts_each_line_for_its_running_requests():
    busy = "".join(DECODE.format(s=s, n=32, al=2.0, rate=0.5, tps=3000.0) for s in range(3))
    tail = "".join(DECODE.format(s=10 + s, n=1, al=4.0, rate=1.0, tps=200.0) for s in range(3))
    s = parse_server_log(busy + tail)
    # 96 rounds per step at 2.0 and 3 at 4.0 (before: the plain mean of lines, 3.0)
    assert s.accept_length_mean == pytest.approx((32 * 2.0 + 4.0) / 33, abs=1e-3)
    assert s.accept_rate_mean == pytest.approx((32 * 0.5 + 1.0) / 33, abs=1e-3)
    assert (s.accept_length_min, s.accept_length_max) == (2.0, 4.0)


# The startup lines that print what the server runs with, after its own rules. SGLang 0.5.3
# (srt/entrypoints/http_server.py `logger.info(f"{server_args=}")`, a dataclass repr of a few
# hundred fields; auto-choose already applied), the arg_groups releases a dict (0.5.23
# engine.py `_server_args_for_logging`); vLLM `SpeculativeConfig.__repr__` in its engine config line.
SGLANG_SERVER_ARGS = (
    "[2025-10-06 12:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
    "tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', tokenizer_mode='auto', "
    + "".join(f"unrelated_field_{i}=None, " for i in range(250))
    + "speculative_algorithm='EAGLE3', speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', "
    "speculative_draft_model_revision='main', speculative_num_steps=5, speculative_eagle_topk=4, "
    "speculative_num_draft_tokens=8, speculative_accept_threshold_single=1.0, speculative_accept_threshold_acc=1.0, "
    "speculative_token_map=None, speculative_attention_mode='prefill', ep_size=1)\n")
VLLM_ENGINE_CONFIG = (
    "(EngineCore_DP0 pid=1183) INFO 08-20 10:00:00 [core.py:74] Initializing a V1 LLM engine (v0.10.1) with "
    "config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', "
    "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', "
    + "".join(f"setting_{i}=1, " for i in range(400)) + "\n")


def test_the_startup_line_says_what_the_server_runs(tmp_path):
    from spec_debug.probes import server_log

    log = tmp_path / "server.log"
    log.write_text(SGLANG_SERVER_ARGS + DECODE.format(s=1, n=1, al=3.1, rate=0.39, tps=180.0))
    host = server_log.run({"server_log": str(log)})
    # the line is thousands of characters: only its speculative settings travel
    assert all(len(line) < 2000 for line in host["lines"])
    served = parse_server_log("\n".join(host["lines"])).served
    assert served == {"engine": "sglang", "algorithm": "EAGLE3", "num_steps": 5, "topk": 4, "num_draft_tokens": 8,
                      "draft_model": "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"}
    newer = ("[2026-10-30 12:00:00] server_args={'model_path': 'Qwen/Qwen3-8B', 'speculative_algorithm': 'EAGLE3', "
             "'speculative_draft_model_path': 'Tengyunw/qwen3_8b_eagle3', 'speculative_num_steps': 3, "
             "'speculative_eagle_topk': 1, 'speculative_num_draft_tokens': 4, 'tp_size': 1}\n")
    assert parse_server_log(newer).served["num_draft_tokens"] == 4
    log.write_text(VLLM_ENGINE_CONFIG)
    served = parse_server_log("\n".join(server_log.run({"server_log": str(log)})["lines"])).served
    assert (served["algorithm"], served["num_steps"], served["draft_model"]) == (
        "EAGLE3", 3, "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    # a later start without speculation: the last startup wins
    assert parse_server_log(VLLM_ENGINE_CONFIG + "config: model='m', speculative_config=None, x=1\n").served is None
