"""A server's startup log line pasted instead of its command (session 14).

Issues quote the log more often than the command: SGLang prints `server_args=ServerArgs(...)`
(http_server.py/engine.py `logger.info(f"{server_args=}")`, a dict `server_args={...}` from
0.5.23) and vLLM `non-default args: {...}` (vllm/entrypoints/utils.py log_non_default_args; the
form below is from public vLLM issues on 0.11.0, one with the next log line run on after it).
Both were 'not an SGLang or vLLM server command', so a one-token cap went without SD101.
A command pasted with its log is still read from the command.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG_LOG = (
    "[2025-10-02 09:14:20] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
    "tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', tokenizer_mode='auto', skip_tokenizer_init=False, "
    "trust_remote_code=False, dtype='auto', quantization=None, context_length=None, host='127.0.0.1', port=30000, "
    "mem_fraction_static=0.7, tp_size=1, random_seed=42, speculative_algorithm='EAGLE3', "
    "speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', speculative_num_steps=1, "
    "speculative_eagle_topk=1, speculative_num_draft_tokens=2, enable_torch_compile=False, lora_paths=None)\n"
    "[2025-10-02 09:14:21] Load weight begin. avail mem=78.50 GB\n")

VLLM_LOG = (
    "(APIServer pid=5385) INFO 11-03 05:51:44 [api_server.py:1839] vLLM API server version 0.11.0 "
    "(APIServer pid=5385) INFO 11-03 05:51:44 [utils.py:233] non-default args: {'model_tag': 'Qwen/Qwen3-8B', "
    "'port': 8005, 'model': 'Qwen/Qwen3-8B', 'lora_modules': [LoRAModulePath(name='a', path='b', base_model_name=None)], "
    "'speculative_config': {'method': 'eagle3', 'model': 'AngelSlim/Qwen3-8B_eagle3', 'num_speculative_tokens': 1}, "
    "'tensor_parallel_size': 2} (APIServer pid=5385) The argument `trust_remote_code` is to be used with Auto classes.")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("log", [
    SGLANG_LOG,
    SGLANG_LOG.replace("tokenizer_mode='auto'", "tokenizer_mode=<TokenizerMode.AUTO: 1>"),  # no Python literal
    "server_args={'model_path': 'meta-llama/Llama-3.1-8B-Instruct', 'speculative_algorithm': 'EAGLE3', "
    "'speculative_draft_model_path': 'jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', 'speculative_num_steps': 1, "
    "'speculative_eagle_topk': 1, 'speculative_num_draft_tokens': 2, 'tp_size': 1}",
])
def test_sglangs_server_args_line(log):
    cfg = parse_launch_command(log)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (
        "sglang", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1, 1, 2)
    launch, findings = _findings(log)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_vllms_non_default_args_line():
    cfg = parse_launch_command(VLLM_LOG)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps, cfg.tp) == (
        "vllm", "Qwen/Qwen3-8B", "EAGLE3", 1, 2)
    launch, findings = _findings(VLLM_LOG)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_the_last_startup_of_a_log_is_read():
    restarted = SGLANG_LOG + SGLANG_LOG.replace("speculative_num_steps=1", "speculative_num_steps=3").replace(
        "speculative_num_draft_tokens=2", "speculative_num_draft_tokens=4")
    assert parse_launch_command(restarted).num_steps == 3


def test_a_command_pasted_with_its_log_is_read_from_the_command():
    text = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
            "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 3 "
            "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4\n")
    assert parse_launch_command(text).num_steps == 3
