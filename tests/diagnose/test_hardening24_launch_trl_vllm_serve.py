"""TRL's `trl vllm-serve` generation server pasted as the launch (session 15).

GRPO/RLOO runs generate with `trl vllm-serve --model M ...`, a vLLM engine built from TRL's own
flags, which use vLLM's names; `--speculative_config` (a JSON string, huggingface/trl#5605) passes
vLLM's speculative config through. It was 'not an SGLang or vLLM server command'.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVE = ("CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen3-8B --tensor_parallel_size 1 "
         "--gpu_memory_utilization 0.9 --speculative_config "
         "'{\"method\": \"eagle3\", \"model\": \"AngelSlim/Qwen3-8B_eagle3\", \"num_speculative_tokens\": 1}'")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_trl_vllm_serve_is_a_vllm_server():
    cfg = parse_launch_command(SERVE)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.tp) == (
        "vllm", "Qwen/Qwen3-8B", "AngelSlim/Qwen3-8B_eagle3", 1)
    launch, findings = _findings(SERVE)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_trls_own_flags_raise_no_finding():
    # (TRL's booleans take a value, `--enable_prefix_caching True`; --log_level and
    # --vllm_model_impl are TRL's: none of them is a speculative setting)
    command = SERVE.replace("--tensor_parallel_size 1", "--log_level info --vllm_model_impl vllm "
                            "--enable_prefix_caching True").replace('"num_speculative_tokens": 1', '"num_speculative_tokens": 3')
    launch, findings = _findings(command)
    assert launch["found"] and [f.code for f in findings] == []
