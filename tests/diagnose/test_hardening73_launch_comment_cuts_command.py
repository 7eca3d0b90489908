"""A commented-out line inside a continued server command ends it: the flags below never reach the server.

Scripts keep a variant of a flag as a comment between the continued lines of the command:

    python3 -m sglang.launch_server \\
      --model-path meta-llama/Llama-3.1-8B-Instruct \\
      # --speculative-algorithm EAGLE \\
      --speculative-algorithm EAGLE3 \\
      ...

A comment has no line continuation (bash(1) COMMENTS): bash starts the server with the words above
the comment and runs the lines below as a command of their own ("--speculative-algorithm: command
not found"), so the server decodes without speculation. The audit read the lines below as a paste
that lost its backslashes and judged an EAGLE-3 server that never runs (here: nothing to say, a
clean audit). Now it is SD102 "runs without speculative decoding", naming the flags cut off. A
comment below the command changes nothing.
"""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.diagnose.steps.launch_step import WITHOUT_SPECULATION_TITLE
from spec_debug.probes.registry import ProbeContext

_SCRIPT = """python3 -m sglang.launch_server \\
  --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --tp 1 \\
  # --speculative-algorithm EAGLE \\
  --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B \\
  --speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32 \\
  --port 30000
"""


def test_bash_itself_ends_the_command_at_the_comment() -> None:
    # the ground truth: printf gets the words above the comment only
    script = _SCRIPT.replace("python3 -m sglang.launch_server", "printf '[%s]'")
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)
    assert run.stdout == "[--model-path][meta-llama/Llama-3.1-8B-Instruct][--tp][1]"
    assert "--speculative-algorithm: command not found" in run.stderr


def test_the_server_is_said_to_run_without_speculation() -> None:
    with pytest.raises(LaunchParseError) as refused:
        parse_launch_command(_SCRIPT)
    assert "--speculative-algorithm, --speculative-draft-model-path, --speculative-num-steps" in refused.value.message
    facts = launch_step.parse({"source": "var", "cmdline": _SCRIPT, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                       host_facts=dict(facts, engine={"name": "sglang", "version": "0.5.9"}))
    [finding] = launch_step.check(ctx)
    assert (finding.code, finding.severity, finding.title) == ("SD102", "warning", WITHOUT_SPECULATION_TITLE)
    assert finding.evidence[0].startswith("a comment inside the continued server command ends it (bash reads no line "
                                          "continuation after a comment, not even a `\\` at its end)")
    # the target the command names still goes to the later steps
    assert facts["resolved_target_model"] == "meta-llama/Llama-3.1-8B-Instruct"


def test_a_comment_after_the_command_changes_nothing() -> None:
    below = _SCRIPT.replace("  # --speculative-algorithm EAGLE \\\n", "") + "# --speculative-algorithm EAGLE\n"
    cfg = parse_launch_command(below)
    assert (cfg.algorithm, cfg.num_steps, cfg.topk) == ("EAGLE3", 5, 8)


def test_a_commented_flag_above_the_speculative_ones_is_just_dropped() -> None:
    # the comment cuts only non-speculative flags: the server still speculates, without them
    script = _SCRIPT.replace("  --tp 1 \\\n  # --speculative-algorithm EAGLE \\\n", "").replace(
        "  --port 30000\n", "  # --enable-torch-compile \\\n  --port 30000\n")
    cfg = parse_launch_command(script)
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 5)
    assert "--port" not in cfg.argv


def test_a_comment_after_a_flag_that_ends_in_a_backslash_ends_the_command_too() -> None:
    # `--tp 1  # one GPU \`: the `\` is the comment's, and the newline ends the command
    script = _SCRIPT.replace("  --tp 1 \\\n  # --speculative-algorithm EAGLE \\\n", "  --tp 1  # one GPU \\\n")
    run = subprocess.run(["bash", "-c", script.replace("python3 -m sglang.launch_server", "printf '[%s]'")],
                         capture_output=True, text=True, check=False)
    assert run.stdout == "[--model-path][meta-llama/Llama-3.1-8B-Instruct][--tp][1]"
    with pytest.raises(LaunchParseError) as refused:
        parse_launch_command(script)
    assert refused.value.hint == "delete the comment (or move it below the command) so the flags after it reach the server"


_UNIT = """[Unit]
Description=vLLM EAGLE-3 server

[Service]
ExecStart=/opt/vllm/bin/vllm serve /srv/models/Llama-3.3-70B-Instruct \\
  --tensor-parallel-size 4 \\
#  --enforce-eager \\
  --speculative-config '{"method":"eagle3","model":"/srv/models/EAGLE3-LLaMA3.3-Instruct-70B","num_speculative_tokens":3}' \\
  --max-model-len 8192
Restart=always
"""


def test_a_systemd_unit_skips_a_comment_line_inside_exec_start() -> None:
    # systemd.syntax(7): "When a comment line or lines follow a line ending with a backslash, the
    # comment block is ignored, so the continued line is concatenated with whatever follows the
    # comment block": no shell reads ExecStart=, and the server gets every flag
    cfg = parse_launch_command(_UNIT)
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 3, 4)
    assert cfg.argv[-2:] == ("--max-model-len", "8192")


_DOCKERFILE = """FROM lmsysorg/sglang:v0.5.9-cu129
CMD python3 -m sglang.launch_server \\
    --model-path meta-llama/Llama-3.1-8B-Instruct \\
    # --speculative-algorithm EAGLE \\
    --speculative-algorithm EAGLE3 \\
    --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B \\
    --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 \\
    --host 0.0.0.0
"""


def test_a_dockerfile_drops_a_comment_line_before_its_shell_runs() -> None:
    # Dockerfile reference, "Format": "Comment lines are removed before the Dockerfile instructions
    # are executed" (its example: `RUN echo hello \\` / `# comment` / `world` echoes "hello world")
    cfg = parse_launch_command(_DOCKERFILE)
    assert (cfg.algorithm, cfg.num_steps, cfg.draft_model) == (
        "EAGLE3", 3, "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B")
