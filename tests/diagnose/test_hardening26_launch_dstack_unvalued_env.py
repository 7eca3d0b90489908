"""A dstack configuration whose `env:` lists a variable with no value (`- STEPS`).

dstack docs, "Environment variables": "If you don't assign a value to an environment variable
(see HF_TOKEN above), dstack will require the value to be passed via the CLI or set in the
current process" (`dstack apply -e NAME=value`). A speculative flag set from such a variable
was said as a shell expansion done when the server starts, with a hint to read /proc of the
running server; now the line names the variable, where dstack takes it from, and how to give it.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SERVICE = """type: service
name: llama31-eagle3
image: lmsysorg/sglang:v0.5.2
env:
{env}
commands:
  - python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3
      --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
      --speculative-num-steps {steps} --speculative-eagle-topk 1 --speculative-num-draft-tokens 4
port: 8000
"""


@pytest.mark.parametrize("env, steps", [("  - HF_TOKEN\n  - STEPS", "$STEPS"),
                                        ("  HF_TOKEN:\n  STEPS:", "${STEPS}")])
def test_a_flag_from_a_variable_dstack_takes_from_the_cli(env, steps):
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(SERVICE.format(env=env, steps=steps))
    message = caught.value.message
    assert "env: lists STEPS with no value" in message and "dstack apply -e STEPS=" in message
    assert "/proc" not in caught.value.hint and "STEPS=VALUE" in caught.value.hint


def test_a_valued_variable_is_read_and_others_keep_the_shell_wording():
    assert parse_launch_command(SERVICE.format(env="  - HF_TOKEN\n  - STEPS=3", steps="$STEPS")).num_steps == 3
    with pytest.raises(LaunchParseError) as caught:  # not in env: at all
        parse_launch_command(SERVICE.format(env="  - HF_TOKEN", steps="$STEPS"))
    assert "dstack" not in caught.value.message
