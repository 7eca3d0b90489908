"""A notebook's cell that never ran, and compose's `entrypoint: [bash, -c]` with a string `command:`.

A saved notebook marks the cells it ran (`execution_count` an int, `outputs`; nbformat docs, "Code
cells"). A launch left above the one run, in a cell never executed, was audited as the server that
ran: the first server in the file won. A notebook with no cell run at all (a docs notebook saved
stripped of its outputs) is still read whole.

Compose splits a string `command:` into words itself (compose-go types/command.go, ShellCommand:
go-shellwords' Parse): after `entrypoint: [bash, -c]` the shell's script is the first word alone
and the server never starts. It was 'not an SGLang or vLLM server command', which says nothing of
why; a one-string list or a string quoted inside is the script as meant, and read.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SERVER = ("!python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
          "--speculative-num-steps {steps} --speculative-eagle-topk 1 --speculative-num-draft-tokens {tokens} &")
OLD, RUN = SERVER.format(steps=1, tokens=2), SERVER.format(steps=5, tokens=6)
OUTPUT = [{"output_type": "stream", "name": "stdout", "text": ["[2026-11-30 10:00:01] server is fired up\n"]}]


def _notebook(*cells):
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "execution_count": count, "outputs": outputs, "source": source}
        for source, count, outputs in cells]}, indent=1)


@pytest.mark.parametrize("cells", [
    [(OLD, None, []), (RUN, 3, OUTPUT)],     # the old launch above, never run
    [(RUN, 2, OUTPUT), (OLD, None, [])],     # a variant below, never run
    [(OLD, None, []), (RUN, None, OUTPUT)],  # outputs kept, the count cleared
])
def test_the_cell_that_ran_is_the_server(cells):
    assert parse_launch_command(_notebook(*cells)).num_steps == 5


def test_a_notebook_never_run_is_read_whole():
    assert parse_launch_command(_notebook((OLD, None, []), (RUN, None, []))).num_steps == 1


COMPOSE = """services:
  sglang:
    image: lmsysorg/sglang:v0.5.5
    entrypoint: {entrypoint}
    command: {command}
"""
LINE = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 1 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2")


@pytest.mark.parametrize("entrypoint", ["[bash, -c]", '["/bin/bash", "-c"]', "/bin/sh -c"])
def test_a_string_command_after_a_shell_entrypoint_is_split(entrypoint):
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(COMPOSE.format(entrypoint=entrypoint, command=LINE))
    assert "runs 'python3' alone" in caught.value.message and "never starts" in caught.value.message
    assert "list of one string" in caught.value.hint


@pytest.mark.parametrize("command", [json.dumps([LINE]), "'\"" + LINE + "\"'", ">\n      \"" + LINE + "\""])
def test_the_script_as_one_word_is_read(command):
    cfg = parse_launch_command(COMPOSE.format(entrypoint='["/bin/bash", "-c"]', command=command))
    assert (cfg.engine, cfg.target_model, cfg.num_steps) == ("sglang", "meta-llama/Llama-3.1-8B-Instruct", 1)


def test_sglang_compose_entrypoint_module_and_string_flags_unchanged():
    # sgl-project/sglang docker/compose.yaml: the module in entrypoint:, no shell
    text = COMPOSE.format(entrypoint="python3 -m sglang.launch_server", command=LINE.split(" ", 3)[3])
    assert parse_launch_command(text).num_steps == 1


# The SGLang docs' speculative decoding page as Python (a notebook's code exported): the EAGLE-2
# example commented out line by line above the call that runs.
COMMENTED = '''from sglang.test.doc_patch import launch_server_cmd
from sglang.utils import wait_for_server, print_highlight, terminate_process

#Eagle2 decoding

# server_process, port = launch_server_cmd(
#     """
# python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf  --speculative-algorithm EAGLE \\\\
#     --speculative-draft-model-path lmsys/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 3 \\\\
#     --speculative-eagle-topk 4 --speculative-num-draft-tokens 16 --cuda-graph-max-bs 8 --log-level warning
# """
# )

# wait_for_server(f"http://localhost:{port}")
'''
LIVE = '''
server_process, port = launch_server_cmd(
    """
python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct  --speculative-algorithm EAGLE3 \\\\
    --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 \\\\
    --speculative-eagle-topk 1 --speculative-num-draft-tokens 6 --cuda-graph-max-bs 8
"""
)
'''


def test_a_commented_out_launch_call_is_passed_by():
    cfg = parse_launch_command(COMMENTED + LIVE)
    assert (cfg.target_model, cfg.algorithm, cfg.num_steps) == ("meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 5)


def test_only_a_commented_out_launch_is_no_server():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(COMMENTED)
