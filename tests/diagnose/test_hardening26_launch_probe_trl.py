"""The /proc probe takes every server the audit reads for a server.

The audit reads `trl vllm-serve --model M ... --speculative_config JSON` (TRL's vLLM generation
server, huggingface/trl#5605) and `python sglang/launch_server.py ...` (SGLang's script run by its
path from a source tree), but the probe that picks the server process on the host did not take
them for one: on a host running one the audit found no server.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.probes.launch_flags import is_server_argv

TRL = ["/opt/venv/bin/python", "/opt/venv/bin/trl", "vllm-serve", "--model", "Qwen/Qwen3-8B",
       "--speculative_config", '{"method": "eagle3", "model": "RedHatAI/Qwen3-8B-speculator.eagle3", '
       '"num_speculative_tokens": 3}']
SGLANG_SCRIPT = ["python3", "/sgl-workspace/sglang/python/sglang/launch_server.py", "--model-path",
                 "meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3",
                 "--speculative-draft-model-path", "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"]


@pytest.mark.parametrize("argv, engine", [(TRL, "vllm"), (SGLANG_SCRIPT, "sglang")])
def test_the_probe_takes_what_the_audit_reads_for_a_server(argv, engine):
    assert is_server_argv(argv)
    assert parse_launch_command(argv).engine == engine


def test_other_trl_commands_and_other_launch_scripts_are_no_server():
    assert not is_server_argv(["/opt/venv/bin/trl", "grpo", "--model_name_or_path", "Qwen/Qwen3-8B"])
    assert not is_server_argv(["python3", "/srv/myapp/launch_server.py", "--port", "9000"])
