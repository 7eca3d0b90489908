"""A Python script that starts the server from a command string (session 15).

`os.system("vllm serve ...")`, `subprocess.run(CMD, shell=True)`, `subprocess.Popen(shlex.split(cmd))`,
an f-string of names the script binds: the string is a command line a shell reads (or splits as a
shell would). Only triple-quoted strings and argv lists were read: these were 'not an SGLang or
vLLM server command'.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

OS_SYSTEM = r'''import os
os.system("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096 "
          "--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 1, \"prompt_lookup_max\": 4}'")
'''

SHELL_TRUE = '''import subprocess
CMD = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
       "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 1 "
       "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --port 30000")
server = subprocess.Popen(CMD, shell=True)
'''

F_STRING = '''import shlex
import subprocess

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
STEPS = 1
subprocess.Popen(shlex.split(f"python3 -m sglang.launch_server --model-path {MODEL} --speculative-algorithm EAGLE3 "
                             f"--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
                             f"--speculative-num-steps {STEPS} --speculative-eagle-topk 1 --speculative-num-draft-tokens 2"))
'''


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("script, engine", [(OS_SYSTEM, "vllm"), (SHELL_TRUE, "sglang"), (F_STRING, "sglang")])
def test_the_command_string_is_the_server(script, engine):
    cfg = parse_launch_command(script)
    assert (cfg.engine, cfg.target_model) == (engine, "meta-llama/Llama-3.1-8B-Instruct")
    launch, findings = _findings(script)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_an_f_string_of_values_not_in_the_text_says_so():
    script = F_STRING.replace("{STEPS}", "{args.steps}")
    with pytest.raises(LaunchParseError, match=r"f-string: args\.steps is not in this text"):
        parse_launch_command(script)


def test_a_string_that_starts_no_server_is_no_launch():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command('import os\nos.system("nvidia-smi")\n')


CONCATENATED = '''import subprocess

BASE_CMD = ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "4096"]
SPEC_ARGS = ["--speculative-config", '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}']
proc = subprocess.Popen(BASE_CMD + SPEC_ARGS)
'''


def test_an_argv_joined_from_two_lists_is_the_whole_command():
    # (was: the SPEC_ARGS list alone taken for the server, as flags pasted alone are: no target)
    cfg = parse_launch_command(CONCATENATED)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    assert cfg.flags["max-model-len"] == "4096"
