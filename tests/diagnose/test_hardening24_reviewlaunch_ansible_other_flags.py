"""Review of the Ansible variables reader (session 15, commit 8cc2619): other tools' flag lists.

A role keeps other tools' flags beside the server's: `sglang_pip_args` (pip's), `vllm_bench_args`
(the benchmark client's), `vllm_healthcheck_curl_args` (curl's). Every variable whose value
started with `--` was taken for the server's flags: a file of pip flags was an SGLang server, and
the benchmark's `--num-prompts` / curl's `--retry` were added to the vLLM server's command.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

PIP_ONLY = """sglang_version: 0.4.6
sglang_pip_args: "--upgrade --extra-index-url https://flashinfer.ai/whl/cu124/torch2.5"
"""

SERVER_AND_CLIENTS = """vllm_model: meta-llama/Llama-3.1-8B-Instruct
vllm_serve_args:
  - --max-model-len 8192
  - --speculative-config
  - '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
vllm_bench_args: "--num-prompts 100 --request-rate 4"
vllm_healthcheck_curl_args: "--retry 10 --retry-delay 5"
"""


def test_a_file_of_pip_flags_is_no_server():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(PIP_ONLY)
    assert "not an SGLang or vLLM server command" in exc.value.message


def test_only_the_servers_own_flag_variables_make_its_command():
    cfg = parse_launch_command(SERVER_AND_CLIENTS)
    assert cfg.num_steps == 3 and cfg.context_length == 8192
    assert not {"--num-prompts", "--request-rate", "--retry", "--retry-delay"} & set(cfg.argv)
