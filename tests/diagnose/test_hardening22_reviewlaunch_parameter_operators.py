"""A parameter expansion's `|`, `&`, `;`, `<`, `>` end no word and no command.

bash reads `${NAME:-word}` to its closing brace as one expansion (bash(1) Parameter Expansion),
so a default holding an operator character is part of the server's word. The word-ending rule for
control operators (today's change for `--port 30000&& curl ...`) cut `--api-key
${API_KEY:-local|dev}` at its `|`, and the speculative flags after it were read as another
command's (the server lost them). An unknown variable stays as written, as before today.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command, split_command

SERVER = "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"
FLAGS = ("--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
         "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")


@pytest.mark.parametrize("expansion", ["${API_KEY:-local|dev}", "${API_KEY:-a&&b}", "${API_KEY:-a;b}",
                                       "${API_KEY:-a>b}", "${API_KEY:-a&b}"])
def test_flags_after_an_expansion_with_an_operator_stay_the_servers(expansion):
    cfg = parse_launch_command(f"{SERVER} --api-key {expansion} {FLAGS} --port 30000")
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", 3, 1, 4)
    assert split_command(f"{SERVER} --api-key {expansion} {FLAGS}")[5:7] == ["--api-key", expansion]


def test_operators_after_the_expansion_still_end_the_command():
    argv = split_command(f"{SERVER} {FLAGS} --port ${{PORT:-30000}}&& curl localhost:30000/health")
    assert argv[-2:] == ["--port", "${PORT:-30000}"]


def test_array_expansions_are_still_read_as_the_scripts_array():
    script = f"ARGS=(--speculative-num-steps 3 --speculative-num-draft-tokens 4)\n{SERVER} " \
             "--speculative-algorithm EAGLE3 --speculative-eagle-topk 1 \"${ARGS[@]}\""
    cfg = parse_launch_command(script)
    assert (cfg.num_steps, cfg.num_draft_tokens) == (3, 4)
