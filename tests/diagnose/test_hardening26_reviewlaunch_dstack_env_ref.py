"""`${{ env.NAME }}` in a dstack configuration's commands (review of 317cb33).

`dstack apply` interpolates the commands with `${{ run.args }}` only (secrets.* left to the
server) and refuses any other name: "Failed to interpolate due to missing vars: ['env.STEPS']"
(dstackai/dstack src/dstack/_internal/cli/services/configurators/run.py `apply_commands_args`;
env.* is filled in only in registry_auth and probes). The audit said the value was 'a shell
expression, which the shell expands when the server starts', and a `--model-path ${{ env.MODEL_ID }}`
was read as a model of that name with no word said; now both are the one line dstack's refusal is.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step

SERVICE = """type: service
name: sglang-eagle3
image: lmsysorg/sglang:latest
env:
  - HF_TOKEN
  - STEPS
  - MODEL_ID=meta-llama/Llama-3.1-8B-Instruct
commands:
  - huggingface-cli login --token ${{{{ secrets.HF_TOKEN }}}}
  - python3 -m sglang.launch_server --model-path {model} --speculative-algorithm EAGLE3
      --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
      --speculative-num-steps {steps} --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 ${{{{ run.args }}}}
port: 30000
"""


@pytest.mark.parametrize("model, steps, name", [("$MODEL_ID", "${{ env.STEPS }}", "STEPS"),
                                                 ("${{ env.MODEL_ID }}", "3", "MODEL_ID")])
def test_an_env_reference_in_the_commands_is_dstacks_refusal(model, steps, name):
    launch = launch_step.parse({"source": "var", "cmdline": SERVICE.format(model=model, steps=steps),
                                "models": {}})["launch"]
    assert not launch["found"]
    assert launch["error"].startswith(f"dstack configuration: the commands use ${{{{ env.{name} }}}}")
    assert f"missing vars: ['env.{name}']" in launch["error"] and f"write ${name}" in launch["error"]


def test_run_args_and_secrets_are_still_read():
    launch = launch_step.parse({"source": "var", "cmdline": SERVICE.format(model="$MODEL_ID", steps="3"),
                                "models": {}})["launch"]
    assert launch["found"] and launch["target_model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert launch["num_steps"] == 3
