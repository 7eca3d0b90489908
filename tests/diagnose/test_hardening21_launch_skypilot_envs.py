"""A SkyPilot task YAML: the server in `run:`, its model names in `envs:` (session 12).

SkyPilot exports a task's `envs:` to its `setup` and `run` scripts (SkyPilot docs, "YAML
specification"), and its own vLLM examples (llm/vllm/serve.yaml) serve `$MODEL_NAME` from there.
The audit read `run:` alone, so the target and the draft were the words "$MODEL_NAME" and "$DRAFT":
the probe could read neither model's config (no trained depth, no draft checks).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


SKY_TASK = """envs:
  MODEL_NAME: meta-llama/Llama-3.1-8B-Instruct
  DRAFT: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B

resources:
  accelerators: {L4:1, A10G:1, A100:1}
  ports: 8000

setup: |
  pip install vllm==0.10.1

run: |
  echo 'Starting vllm api server...'
  vllm serve $MODEL_NAME \\
    --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE \\
    --max-model-len 8192 \\
    --speculative-config '{"method": "eagle3", "model": "'$DRAFT'", "num_speculative_tokens": 1}' \\
    --port 8000
"""


def test_the_task_envs_name_the_models():
    launch, findings = _findings(SKY_TASK)
    assert launch["target_model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert launch["draft_model"] == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
    assert launch["num_steps"] == 1 and [f.code for f in findings] == ["SD101"]


def test_skypilot_own_variables_stay_unknown():
    argv = split_command(SKY_TASK)
    assert argv[argv.index("--tensor-parallel-size") + 1] == "$SKYPILOT_NUM_GPUS_PER_NODE"


def test_a_run_key_of_another_yaml_is_not_a_skypilot_task():
    argv = split_command("run: |\n  vllm serve $MODEL_NAME --port 8000\n")
    assert argv[:3] == ["vllm", "serve", "$MODEL_NAME"]
