"""A server's `--config` YAML file pasted alone as the launch (session 14).

Both engines read `--config FILE.yaml` as flags (vLLM FlexibleArgumentParser, SGLang
ConfigArgumentMerger; spec_debug.diagnose.config_file), and a runbook often keeps only that
file. Pasted alone it was 'not an SGLang or vLLM server command'. Now keys only one engine has
name the engine, as flags pasted alone are named, and the file's words are its flags.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

VLLM_CONFIG = """model: meta-llama/Llama-3.1-8B-Instruct
host: 0.0.0.0
port: 8000
tensor-parallel-size: 1
max-model-len: 8192
speculative-config:
  method: eagle3
  model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 1
"""

SGLANG_CONFIG = """model-path: meta-llama/Llama-3.1-8B-Instruct
speculative-algorithm: EAGLE3
speculative-draft-model-path: jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
speculative-num-steps: 1
speculative-eagle-topk: 1
speculative-num-draft-tokens: 2
mem-fraction-static: 0.7
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("text, engine, target", [
    (VLLM_CONFIG, "vllm", "meta-llama/Llama-3.1-8B-Instruct"),
    (VLLM_CONFIG.replace("speculative-config:", "speculative_config:"), "vllm", "meta-llama/Llama-3.1-8B-Instruct"),
    (SGLANG_CONFIG, "sglang", "meta-llama/Llama-3.1-8B-Instruct"),
])
def test_a_config_file_alone_is_its_servers_flags(text, engine, target):
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (engine, target, "EAGLE3", 1)
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_yaml_mapping_of_no_engines_flags_is_no_launch():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command("name: eagle3-bench\nsteps: 3\nmodel: meta-llama/Llama-3.1-8B-Instruct\n")
