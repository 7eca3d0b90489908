"""Review of the compose reader: a `command:` string written over backslash-ended lines.

Compose splits a string `command:` into words itself, with no shell: compose-go's ShellCommand
(types/command.go) calls mattn/go-shellwords' Parse, where a backslash escapes the next
character, a line break included, and no lines are joined. `command: |` with shell-style `\\`
line endings hands vLLM a line-break argument (a folded `>` block: ' --speculative-config'),
and the server exits with 'unrecognized arguments'. The audit read the flags after the break as
unknown words and reported a server without speculation, no finding.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SPEC = """'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'"""

COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.9.1
    ports: ["8000:8000"]
    command: {block}
      --model meta-llama/Llama-3.1-8B-Instruct{end}
      --max-model-len 8192{end}
      --speculative-config {spec}
"""


@pytest.mark.parametrize("block", ["|", ">"])
def test_backslash_line_ends_in_a_compose_string_are_refused(block):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(COMPOSE.format(block=block, end=" \\", spec=SPEC))
    message = exc.value.message
    assert "compose's command:" in message and "'--max-model-len'" in message and "\n" not in message
    assert "backslashes" in exc.value.hint


@pytest.mark.parametrize("block", ["|", ">"])
def test_a_compose_string_without_backslashes_is_the_server(block):
    cfg = parse_launch_command(COMPOSE.format(block=block, end="", spec=SPEC))
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" and cfg.num_steps == 3


def test_a_side_container_with_backslashes_does_not_hide_the_server():
    text = COMPOSE.format(block="|", end="", spec=SPEC) + """  warmup:
    image: curlimages/curl:8.7.1
    command: |
      curl -sf http://vllm:8000/health \\
        --retry 30
"""
    cfg = parse_launch_command(text)
    assert cfg.num_steps == 3


def test_an_escaped_space_in_a_path_is_not_a_line_end():
    text = COMPOSE.format(block="|", end="", spec=SPEC).replace(
        "--max-model-len 8192", "--download-dir /data/hf\\ cache")
    assert parse_launch_command(text).num_steps == 3
