"""`docker inspect -f '{{.Path}} {{.Args}}' CONTAINER` pasted as the launch (session 14).

The quick way to show a container's process: its path, then its arguments as Go prints a
[]string (space-joined inside brackets, each argument as is). It was read as shell words:
`[serve` is no `serve`, so a vLLM container's flags went unread (not a server command) and the
JSON lost its quotes. Now the bracketed words are the argv, quotes kept, as in a `ps` line.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command


def test_vllms_path_and_args():
    cfg = parse_launch_command('vllm [serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '
                               '{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1} '
                               '--port 8000]\n')
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)


def test_sglangs_path_and_args():
    cfg = parse_launch_command("python3 [-m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                               "--speculative-algorithm EAGLE3 --speculative-num-steps 1 --speculative-eagle-topk 1 "
                               "--speculative-num-draft-tokens 2]")
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("sglang", "EAGLE3", 1)


def test_a_shell_test_bracket_is_still_shell():
    with pytest.raises(LaunchParseError, match="written unquoted in a shell command"):
        parse_launch_command('[ -f /x ] && vllm serve m --speculative-config {"method":"eagle3","num_speculative_tokens":2}')
