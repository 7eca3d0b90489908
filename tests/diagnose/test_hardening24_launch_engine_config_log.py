"""vLLM's engine start line pasted instead of the command (session 15).

Every vLLM server log has `Initializing a V1 LLM engine (vX) with config: model='...',
speculative_config=SpeculativeConfig(method='eagle3', model='...', num_spec_tokens=3), ...`
(V0: `Initializing an LLM engine (vX) with config: ...`), and it is the line an issue pastes most
(vllm-project/speculators#166 pastes one). Its values are no Python (`dtype=torch.bfloat16`,
`tokenizer_mode=auto`), and it was 'not an SGLang or vLLM server command': a logged one-token
cap went unreported.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# vllm-project/speculators#166 (the draft path shortened)
SPECULATORS_166 = (
    "(EngineCore_DP0 pid=774560) INFO 10-30 14:20:52 [core.py:93] Initializing a V1 LLM engine "
    "(v0.10.1.dev2081+gc44ef9fc0.d20250930) with config: model='meta-llama/Meta-Llama-3.1-8B-Instruct', "
    "speculative_config=SpeculativeConfig(method='eagle3', model='/tmp/pytest/random-weights-llama3.1.8b-2layer-eagle3', "
    "num_spec_tokens=3), tokenizer='meta-llama/Meta-Llama-3.1-8B-Instruct', skip_tokenizer_init=False, "
    "tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, "
    "max_seq_len=1024, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, "
    "data_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, "
    "kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=meta-llama/Meta-Llama-3.1-8B-Instruct, "
    "enable_prefix_caching=True, chunked_prefill_enabled=True, pooler_config=None\n")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_the_engine_start_line_is_the_command_it_stands_for():
    cfg = parse_launch_command(SPECULATORS_166)
    assert (cfg.engine, cfg.target_model, cfg.tp) == ("vllm", "meta-llama/Meta-Llama-3.1-8B-Instruct", 1)
    assert cfg.speculative_config == {"method": "eagle3", "model": "/tmp/pytest/random-weights-llama3.1.8b-2layer-eagle3",
                                      "num_speculative_tokens": 3}
    assert cfg.flags["max-model-len"] == "1024"


def test_a_logged_one_token_cap_is_sd101():
    text = "INFO 08-12 10:21:33 [core.py:74] Initializing a V1 LLM engine (v0.10.0) with config: " + (
        SPECULATORS_166.split("with config: ", 1)[1].replace("num_spec_tokens=3", "num_spec_tokens=1"))
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_an_ngram_config_logs_no_model():
    text = SPECULATORS_166.replace("method='eagle3', model='/tmp/pytest/random-weights-llama3.1.8b-2layer-eagle3'",
                                   "method='ngram', model=None")
    cfg = parse_launch_command(text)
    assert json.loads(json.dumps(cfg.speculative_config)) == {"method": "ngram", "num_speculative_tokens": 3}


def test_a_v0_line_without_speculation_is_a_plain_server():
    # (rust-lang/www.rust-lang.org#2107 pastes one: `Initializing an LLM engine (v0.6.6) ...`)
    text = ("INFO 01-14 03:08:50 llm_engine.py:234] Initializing an LLM engine (v0.6.6) with config: "
            "model='/workspace/models/models--Qwen--Qwen2-0.5B', speculative_config=None, "
            "tokenizer='/workspace/models/models--Qwen--Qwen2-0.5B', skip_tokenizer_init=False, "
            "dtype=torch.bfloat16, max_seq_len=131072, tensor_parallel_size=1, pipeline_parallel_size=2\n")
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.speculative) == ("vllm", "/workspace/models/models--Qwen--Qwen2-0.5B", False)
