"""An empty line after a `\\` line ends the continued server command: the flags below never reach it.

    vllm serve meta-llama/Llama-3.1-8B-Instruct \\
      --tensor-parallel-size 2 \\

      --speculative-config '{"method": "eagle3", ...}'

The `\\` continues the command onto the empty line, and that line's newline ends it (bash(1): an
escaped newline is removed, nothing more), so bash starts the server with the words above and runs
the flag lines below as a command of their own ("command not found"): no speculative decoding.
The audit read the lines below as a paste that lost its backslashes and judged an EAGLE-3 server
that never runs. Now it is SD102 "runs without speculative decoding".
"""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.diagnose.steps.launch_step import WITHOUT_SPECULATION_TITLE
from spec_debug.probes.registry import ProbeContext

_SCRIPT = """vllm serve meta-llama/Llama-3.1-8B-Instruct \\
  --tensor-parallel-size 2 \\

  --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}' \\
  --port 8000
"""


def test_bash_ends_the_command_at_the_empty_line() -> None:
    run = subprocess.run(["bash", "-c", _SCRIPT.replace("vllm serve", "printf '[%s]'")], capture_output=True,
                         text=True, check=False)
    assert run.stdout == "[meta-llama/Llama-3.1-8B-Instruct][--tensor-parallel-size][2]"
    assert "--speculative-config: command not found" in run.stderr


def test_the_server_is_said_to_run_without_speculation() -> None:
    with pytest.raises(LaunchParseError) as refused:
        parse_launch_command(_SCRIPT)
    assert refused.value.message.startswith("an empty line after a `\\` line ends the continued server command")
    assert "(--speculative-config)" in refused.value.message
    facts = launch_step.parse({"source": "var", "cmdline": _SCRIPT, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                       host_facts=dict(facts, engine={"name": "vllm", "version": "0.11.0"}))
    [finding] = launch_step.check(ctx)
    assert (finding.code, finding.severity, finding.title) == ("SD102", "warning", WITHOUT_SPECULATION_TITLE)
    assert facts["resolved_target_model"] == "meta-llama/Llama-3.1-8B-Instruct"


def test_without_the_empty_line_it_is_one_command() -> None:
    cfg = parse_launch_command(_SCRIPT.replace("\\\n\n", "\\\n"))
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 3, 2)


def test_a_dockerfile_joins_across_the_empty_line() -> None:
    # Docker's parser joins a continuation across an empty line (with an "Empty continuation line"
    # warning) before the shell form reaches a shell
    dockerfile = "FROM vllm/vllm-openai:v0.11.0\nCMD " + _SCRIPT
    cfg = parse_launch_command(dockerfile)
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 3, 2)
