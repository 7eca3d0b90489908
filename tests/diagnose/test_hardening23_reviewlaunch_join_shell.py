"""Review of the `" ".join(cmd)` + shell=True rule (session 14, launch audit).

The rule refused any script holding a `" ".join(...)` call and a `shell=True` keyword anywhere:
a serve script that logs its command (`print("launching:", " ".join(cmd))`, the public Modal /
vLLM scripts' `logger.info(f"Launching vLLM: {' '.join(cmd)}")`) and runs the list itself, or
joins the words each quoted for the shell (`" ".join(shlex.quote(c) for c in cmd)`), was told
its server does not start. Only the shell=True call's own command counts now.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

HEAD = '''import json
import shlex
import subprocess

SPEC = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}
cmd = ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-config", json.dumps(SPEC)]
'''


@pytest.mark.parametrize("tail", [
    # the list run as a list; the join only logged, and another command run through a shell
    'print("launching:", " ".join(cmd))\nsubprocess.run("nvidia-smi", shell=True)\nproc = subprocess.Popen(cmd)\n',
    'subprocess.run(" ".join(["nvidia-smi", "-L"]), shell=True)\nsubprocess.Popen(cmd)\n',
    # each word quoted for the shell before the join: /bin/sh gives the server the same words
    'subprocess.Popen(" ".join(shlex.quote(c) for c in cmd), shell=True)\n',
    'subprocess.Popen(" ".join(map(shlex.quote, cmd)), shell=True)\n',
])
def test_a_list_the_shell_does_not_split_is_read(tail):
    cfg = parse_launch_command(HEAD + tail)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("vllm", "EAGLE3", 3)


@pytest.mark.parametrize("tail", [
    'subprocess.Popen(" ".join(cmd), shell=True)\n',
    'command = " ".join(cmd)\nprint(command)\nsubprocess.Popen(command, shell=True)\n',
    'subprocess.Popen(args=" ".join(cmd), shell=True)\n',
])
def test_the_words_joined_for_the_shell_are_still_refused(tail):
    with pytest.raises(LaunchParseError, match="shell=True"):
        parse_launch_command(HEAD + tail)
