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


# vLLM 0.4 .. 0.8 log every CLI argument at startup (vllm/entrypoints/openai/api_server.py,
# `logger.info("args: %s", args)`); this one from 0.6.0, with a V0 EAGLE draft capped at 1 token
NAMESPACE_LOG = """INFO 09-10 06:57:17 api_server.py:459] vLLM API server version 0.6.0
INFO 09-10 06:57:17 api_server.py:460] args: Namespace(host=None, port=8000, uvicorn_log_level='info', allow_credentials=False, allowed_origins=['*'], allowed_methods=['*'], allowed_headers=['*'], api_key=None, lora_modules=None, prompt_adapters=None, chat_template=None, response_role='assistant', ssl_keyfile=None, ssl_certfile=None, ssl_ca_certs=None, ssl_cert_reqs=0, root_path=None, middleware=[], return_tokens_as_token_ids=False, disable_frontend_multiprocessing=False, enable_auto_tool_choice=False, tool_call_parser=None, model='meta-llama/Meta-Llama-3-8B-Instruct', tokenizer=None, skip_tokenizer_init=False, revision=None, code_revision=None, tokenizer_revision=None, tokenizer_mode='auto', trust_remote_code=False, download_dir=None, load_format='auto', dtype='auto', kv_cache_dtype='auto', quantization_param_path=None, max_model_len=None, guided_decoding_backend='outlines', distributed_executor_backend=None, worker_use_ray=False, pipeline_parallel_size=1, tensor_parallel_size=1, max_parallel_loading_workers=None, ray_workers_use_nsight=False, block_size=16, enable_prefix_caching=False, disable_sliding_window=False, use_v2_block_manager=True, num_lookahead_slots=0, seed=0, swap_space=4, cpu_offload_gb=0, gpu_memory_utilization=0.9, num_gpu_blocks_override=None, max_num_batched_tokens=None, max_num_seqs=256, max_logprobs=20, disable_log_stats=False, quantization=None, rope_scaling=None, rope_theta=None, enforce_eager=False, max_context_len_to_capture=None, max_seq_len_to_capture=8192, disable_custom_all_reduce=False, tokenizer_pool_size=0, tokenizer_pool_type='ray', tokenizer_pool_extra_config=None, limit_mm_per_prompt=None, enable_lora=False, max_loras=1, max_lora_rank=16, lora_extra_vocab_size=256, lora_dtype='auto', long_lora_scaling_factors=None, max_cpu_loras=None, fully_sharded_loras=False, enable_prompt_adapter=False, max_prompt_adapters=1, max_prompt_adapter_token=0, device='auto', num_scheduler_steps=1, multi_step_stream_outputs=False, scheduler_delay_factor=0.0, enable_chunked_prefill=None, speculative_model='yuhuili/EAGLE-LLaMA3-Instruct-8B', speculative_model_quantization=None, num_speculative_tokens=1, speculative_draft_tensor_parallel_size=None, speculative_max_model_len=None, speculative_disable_by_batch_size=None, ngram_prompt_lookup_max=None, ngram_prompt_lookup_min=None, spec_decoding_acceptance_method='rejection_sampler', typical_acceptance_sampler_posterior_threshold=None, typical_acceptance_sampler_posterior_alpha=None, disable_logprobs_during_spec_decoding=None, model_loader_extra_config=None, ignore_patterns=[], preemption_mode=None, served_model_name=None, qlora_adapter_name_or_path=None, otlp_traces_endpoint=None, collect_detailed_traces=None, disable_async_output_proc=False, override_neuron_config=None, disable_log_requests=False, max_log_len=None)
"""


def test_an_args_namespace_line_is_the_command_it_stands_for():
    cfg = parse_launch_command(NAMESPACE_LOG)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "meta-llama/Meta-Llama-3-8B-Instruct", "yuhuili/EAGLE-LLaMA3-Instruct-8B")
    launch, findings = _findings(NAMESPACE_LOG)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_another_programs_namespace_is_no_server():
    import pytest

    from spec_debug.diagnose.launch import LaunchParseError
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command("INFO train.py:12] args: Namespace(lr=0.001, epochs=3, model='resnet50')\n")
