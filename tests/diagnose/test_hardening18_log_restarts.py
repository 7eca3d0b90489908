"""A server log appended to across restarts (`nohup ... >> server.log`, `journalctl -u vllm`,
`docker logs` after a restart) holds several servers' numbers, typically the on-call engineer's
tries at another K. Averaging them all described no server: the accept length mixed a K=3 run with
a K=5 run, while `served` (the last startup) said K=5. Only the last run that logged numbers is
read now, with its own startup's settings."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.probes import server_log
from spec_debug.probes.registry import ProbeContext

# SGLang's startup line (srt/entrypoints/http_server.py `logger.info(f"{server_args=}")`) and
# decode line (sgl-project/sglang#11948 format), for two runs of the same target.
SGLANG_START = ("[2026-10-30 12:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
                "speculative_algorithm='EAGLE3', speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-"
                "Instruct-8B', speculative_num_steps={steps}, speculative_eagle_topk=1, "
                "speculative_num_draft_tokens={tokens}, tp_size=1)")
SGLANG_DECODE = ("[2026-10-30 12:0{m}:1{i} TP0] Decode batch. #running-req: 1, #token: 1162, token usage: 0.00, "
                 "accept len: {al}, accept rate: 0.60, cuda graph: True, gen throughput (token/s): {tps}, "
                 "#queue-req: 0, ")
# vLLM: the engine's config line (SpeculativeConfig.__repr__) and SpecDecodingLogging.log
VLLM_START = ("(EngineCore_DP0 pid=7) INFO 10-30 12:0{m}:00 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with "
              "config: model='Qwen/Qwen3-8B', speculative_config=SpeculativeConfig(method='eagle3', "
              "model='RedHatAI/Qwen3-8B-speculator.eagle3', num_spec_tokens={k}), tokenizer='Qwen/Qwen3-8B'")
VLLM_SPEC = ("(APIServer pid=1) INFO 10-30 12:0{m}:3{i} [metrics.py:96] SpecDecoding metrics: Mean acceptance length: "
             "{al}, Accepted throughput: 40.00 tokens/s, Drafted throughput: 90.00 tokens/s, Accepted: {acc} tokens, "
             "Drafted: {drafted} tokens, Per-position acceptance rate: {rates}, Avg Draft acceptance rate: 44.4%")


def _sglang_log() -> list[str]:
    first = [SGLANG_START.format(steps=3, tokens=4)] + [
        SGLANG_DECODE.format(m=1, i=i, al="3.10", tps="240.00") for i in range(5)]
    second = [SGLANG_START.format(steps=5, tokens=6)] + [
        SGLANG_DECODE.format(m=3, i=i, al="1.60", tps="130.00") for i in range(3)]
    return first + ["[2026-10-30 12:02:00] Received sigterm, shutting down"] + second


def test_an_appended_sglang_log_reads_the_last_run_only():
    stats = parse_server_log("\n".join(_sglang_log()))
    assert stats.accept_length_mean == 1.6  # not 2.54, the mean of both runs
    assert stats.gen_tok_s_median == 130.0
    assert stats.served["num_steps"] == 5 and stats.server_starts == 2 and stats.earlier_runs_skipped == 1


def test_a_restart_that_has_not_logged_numbers_yet_leaves_the_run_before(tmp_path):
    # the server was just restarted with K=5 and has served nothing: the numbers are the K=3 run's
    log = tmp_path / "vllm.log"
    lines = [VLLM_START.format(m=0, k=3)] + [
        VLLM_SPEC.format(m=1, i=i, al="2.20", acc=120, drafted=300, rates="0.600, 0.400, 0.200") for i in range(3)]
    lines += [VLLM_START.format(m=5, k=5)]
    log.write_text("\n".join(lines) + "\n")
    # through the host probe, which keeps only the startup and metric lines
    kept = server_log.run({"server_log": str(log)})["lines"]
    stats = parse_server_log("\n".join(kept))
    assert stats.accept_length_mean == 2.2
    assert stats.served["num_steps"] == 3  # the startup of the run the numbers come from


def test_the_throughput_step_notes_the_runs_it_left_out(monkeypatch):
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.05)
    cmd = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 6")
    launch = launch_step.parse({"source": "var", "cmdline": cmd, "models": {}})
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": _sglang_log(),
                                   "args": {"baseline_tok_s": "150"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**launch, **facts})
    throughput_step.check(ctx)
    tp = facts["throughput"]
    assert tp["observed_accept_length"] == 1.6 and tp["measured_tok_s"] == 130.0
    assert any("2 server startups" in note for note in tp["model"]["notes"])
