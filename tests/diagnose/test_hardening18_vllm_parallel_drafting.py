"""vLLM's parallel drafters propose all K tokens in one draft forward pass: method dflash (and
dspark), and `"parallel_drafting": true` (P-EAGLE on eagle3, PARD on draft_model; vllm-project/vllm
PR #32887, v0.16.0). A round costs 1 + c target steps, not 1 + K*c; charging K = 15 passes made a
DFlash server look unable to pay off (SD503) and put its break-even accept length near 3."""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.probes.registry import ProbeContext

# z-lab's model card, quoted in https://github.com/qualcomm/vllm-qaic/pull/71 (review thread):
# https://huggingface.co/z-lab/Qwen3-4B-DFlash-b16
VLLM_DFLASH = ("vllm serve Qwen/Qwen3-4B \\\n"
               "  --speculative-config '{\"method\": \"dflash\", \"model\": \"z-lab/Qwen3-4B-DFlash-b16\", "
               "\"num_speculative_tokens\": 15}' \\\n"
               "  --attention-backend flash_attn \\\n"
               "  --max-num-batched-tokens 32768")
# P-EAGLE on gpt-oss (vllm-project/vllm PR #32887: AWS's 2-layer P-EAGLE, best at K=7 at BS=1).
VLLM_PEAGLE = ("vllm serve openai/gpt-oss-120b --speculative-config '{\"method\": \"eagle3\", "
               "\"model\": \"amazon/gpt-oss-120b-p-eagle\", \"num_speculative_tokens\": 7, "
               "\"parallel_drafting\": true}'")
VLLM_EAGLE3 = ("vllm serve openai/gpt-oss-120b --speculative-config '{\"method\": \"eagle3\", "
               "\"model\": \"nvidia/gpt-oss-120b-Eagle3\", \"num_speculative_tokens\": 7}'")
# vllm/v1/spec_decode/metrics.py `SpecDecodingLogging.log`, a 4.5 accept length over 15 positions
SPEC_LINE = ("(APIServer pid=1) INFO 10-30 12:01:0{i} [metrics.py:96] SpecDecoding metrics: Mean acceptance "
             "length: 4.50, Accepted throughput: 120.00 tokens/s, Drafted throughput: 514.29 tokens/s, "
             "Accepted: 1400 tokens, Drafted: 6000 tokens, Per-position acceptance rate: "
             + ", ".join(["0.800"] * 3 + ["0.300"] * 12) + ", Avg Draft acceptance rate: 23.3%")
GEN_LINE = ("(APIServer pid=1) INFO 10-30 12:01:0{i} [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 "
            "tokens/s, Avg generation throughput: 170.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, "
            "GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%")


def _model(monkeypatch, command: str, lines: list[str]) -> dict:
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.14)
    launch = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "100"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**launch, **facts})
    codes = [f.code for f in throughput_step.check(ctx)]
    return {**facts["throughput"], "codes": codes}


def test_a_vllm_dflash_server_pays_one_draft_pass_per_round(monkeypatch):
    lines = [line.format(i=i) for i in range(3) for line in (SPEC_LINE, GEN_LINE)]
    tp = _model(monkeypatch, VLLM_DFLASH, lines)
    assert tp["served_steps"] == 15
    assert tp["model"]["draft_passes"] == 1
    assert round(tp["model"]["break_even_accept_length"], 4) > 1.0
    # 4.5 tokens a round at 170 vs 100 tok/s: 2.65 target steps a round, 1 + 0.14 of them the
    # verify and the one draft pass (15 passes would cost 3.1 and leave nothing for overhead)
    assert tp["model"]["round_overhead"] == round(4.5 * 100 / 170 - 1.14, 4)
    assert any("one draft pass" in note for note in tp["model"]["notes"])


def test_p_eagle_is_one_pass_but_plain_eagle3_is_k_passes(monkeypatch):
    lines = [line.format(i=i) for i in range(3) for line in (SPEC_LINE, GEN_LINE)]
    assert _model(monkeypatch, VLLM_PEAGLE, lines)["model"]["draft_passes"] == 1
    assert _model(monkeypatch, VLLM_EAGLE3, lines)["model"]["draft_passes"] == 7


def test_a_dflash_server_known_only_from_its_startup_line(monkeypatch):
    # vllm/config/speculative.py `SpeculativeConfig.__repr__` in the engine's startup line
    startup = ("(EngineCore_DP0 pid=7) INFO 10-30 12:00:00 [core.py:77] Initializing a V1 LLM engine (v0.20.0) "
               "with config: model='Qwen/Qwen3-4B', speculative_config=SpeculativeConfig(method='dflash', "
               "model='z-lab/Qwen3-4B-DFlash-b16', num_spec_tokens=15), tokenizer='Qwen/Qwen3-4B'")
    lines = [startup] + [line.format(i=i) for i in range(3) for line in (SPEC_LINE, GEN_LINE)]
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.14)
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "100"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**facts})
    throughput_step.check(ctx)
    assert facts["throughput"]["served_steps"] == 15
    assert facts["throughput"]["model"]["draft_passes"] == 1


def test_a_draft_named_dflash_is_served_as_dflash_without_a_method():
    # vllm/config/speculative.py detects "dflash" in the draft's name after the eagle checks
    cfg = parse_launch_command("vllm serve Qwen/Qwen3-8B --speculative-config "
                               "'{\"model\": \"z-lab/Qwen3-8B-DFlash-b16\", \"num_speculative_tokens\": 15}'")
    assert cfg.algorithm == "DFLASH"
