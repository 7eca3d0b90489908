"""A `--speculative-config` JSON written unquoted in a shell script (session 13).

A public GLM-5.3-Flash NVFP4 serve script on GitHub ends its `exec python3 -m
vllm.entrypoints.openai.api_server \\` lines with `--speculative-config
{"method":"glm5_next_mtp","num_speculative_tokens":3}`, unquoted. bash removes the double quotes
and brace-expands the object at its unquoted comma (bash(1) "Brace Expansion"; `printf '[%s]\\n'
{"method":"mtp","num_speculative_tokens":3}` prints [method:mtp] [num_speculative_tokens:3]),
so vLLM's json.loads refuses it and the server does not start. The whole script said only
'not valid JSON' with a hint about `ps`; a fragment of the same lines (no `vllm serve` line) was
re-read as a `ps` listing, which keeps the quotes, and audited as a valid EAGLE-3 config.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

GLM_SCRIPT = """#!/usr/bin/env bash
export PYTHONPATH=/workspace/glmvllm
export VLLM_USE_DEEP_GEMM=0 VLLM_MOE_USE_DEEP_GEMM=0
export FLASHINFER_CUDA_ARCH_LIST=12.0f TORCH_CUDA_ARCH_LIST=12.0 HF_HUB_OFFLINE=1
export VLLM_ENGINE_READY_TIMEOUT_S=3600 MAX_JOBS=6 NVCC_THREADS=2
exec python3 -m vllm.entrypoints.openai.api_server \\
  --model /workspace/models/GLM-5.3-Flash-NVFP4 --served-model-name glm53f --host 0.0.0.0 --port 8000 \\
  --tensor-parallel-size 4 --attention-backend FLASHINFER_MLA_SPARSE_SM90 \\
  --kv-cache-dtype auto --max-model-len 40960 --max-num-seqs 256 \\
  --max-num-batched-tokens 8192 --gpu-memory-utilization 0.90 \\
  --reasoning-parser deepseek_r1 --tool-call-parser glm47 \\
  --enable-prefix-caching --trust-remote-code --disable-custom-all-reduce \\
  --no-enable-flashinfer-autotune \\
  --disable-uvicorn-access-log --block-size 1024 --speculative-config {"method":"glm5_next_mtp","num_speculative_tokens":3}
"""

FRAGMENT = """    --speculative-config {"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":3} \\
    --tensor-parallel-size 1 \\
    --max-model-len 2048"""


def _refusal(text: str) -> LaunchParseError:
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(text)
    return exc.value


def test_the_public_script_says_the_shell_removed_the_quotes():
    err = _refusal(GLM_SCRIPT)
    assert "JSON written unquoted in a shell command" in str(err)
    assert "server does not start" in str(err)
    quoted = err.hint.split("--speculative-config ", 1)[1]
    assert json.loads(quoted.strip("'")) == {"method": "glm5_next_mtp", "num_speculative_tokens": 3}


def test_a_fragment_of_continued_lines_is_read_as_the_shell_reads_it():
    err = _refusal(FRAGMENT)
    assert "JSON written unquoted in a shell command" in str(err)


def test_a_ps_listing_keeps_its_json():
    # `ps -o args` prints the argv the server got, quotes and all, on one line
    cfg = parse_launch_command('python3 -m vllm.entrypoints.openai.api_server --model m --speculative-config '
                               '{"method": "eagle3", "model": "d", "num_speculative_tokens": 3}')
    assert cfg.algorithm == "EAGLE3" and cfg.num_steps == 3
