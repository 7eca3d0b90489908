"""A dstack service/task configuration pasted as the launch (session 15).

dstack runs a configuration's `commands:` one after another in its container with its `env:`
(`KEY=value` items or a mapping) set (dstack docs, "Services": `env: [HF_TOKEN, MODEL_ID=...]`,
`commands: [python3 -m sglang.launch_server --model-path $MODEL_ID ...]`). The file was read as
shell words: `$MODEL_ID` and `$DRAFT_MODEL_ID` stayed unexpanded, so the audited server had no
known target or draft (their configs never fetched, the trained depth never compared).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

SGLANG_SERVICE = """type: service
name: llama31-eagle3

image: lmsysorg/sglang:v0.5.2
env:
  - HF_TOKEN
  - MODEL_ID=meta-llama/Llama-3.1-8B-Instruct
  - DRAFT_MODEL_ID=jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
commands:
  - python3 -m sglang.launch_server
      --model-path $MODEL_ID
      --speculative-algorithm EAGLE3
      --speculative-draft-model-path $DRAFT_MODEL_ID
      --speculative-num-steps 1
      --speculative-eagle-topk 1
      --speculative-num-draft-tokens 2
      --port 8000
      --trust-remote-code
port: 8000
model: meta-llama/Llama-3.1-8B-Instruct

resources:
  gpu: 80GB
"""

VLLM_TASK = """type: task
name: vllm-eagle3
image: vllm/vllm-openai:v0.10.2
env:
  MODEL_ID: meta-llama/Llama-3.1-8B-Instruct
  SPEC: '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
commands:
  - pip install -U huggingface_hub
  - vllm serve $MODEL_ID --max-model-len 8192 --speculative-config "$SPEC"
resources:
  gpu: 24GB..
"""


def test_a_dstack_service_runs_its_commands_with_its_env():
    cfg = parse_launch_command(SGLANG_SERVICE)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.num_steps) == (
        "sglang", "meta-llama/Llama-3.1-8B-Instruct", "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B", 1)


def test_a_dstack_task_with_an_env_mapping():
    cfg = parse_launch_command(VLLM_TASK)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    assert cfg.speculative_config["num_speculative_tokens"] == 3
