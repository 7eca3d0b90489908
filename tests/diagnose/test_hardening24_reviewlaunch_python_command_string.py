"""Review of the Python command-string reader (session 15, commit 6e8d147).

A script that reads the CLI's help or version through os.system / subprocess starts no server:
`subprocess.check_output("vllm serve --help=speculative", shell=True)` was audited as a vLLM server
with no model. And a command line handed to subprocess as one string without shell=True never
runs: Python takes the whole string for the program's name (docs.python.org/3/library/subprocess.html,
"Frequently Used Arguments"), so the server the audit reported does not start.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SPEC = ("--speculative-config '{\\\"method\\\": \\\"eagle3\\\", \\\"model\\\": "
        "\\\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\\", \\\"num_speculative_tokens\\\": 3}'")

HELP_ONLY = '''import subprocess
version = subprocess.check_output("vllm --version", shell=True)
options = subprocess.check_output("vllm serve --help=speculative", shell=True)
print(version, options)
'''

NO_SHELL = f'''import subprocess
subprocess.run("vllm serve meta-llama/Llama-3.1-8B-Instruct {SPEC}")
'''

SHELL_FALSE = f'''from subprocess import Popen
server = Popen("vllm serve meta-llama/Llama-3.1-8B-Instruct {SPEC}", shell=False)
'''


def test_a_script_reading_the_help_starts_no_server():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(HELP_ONLY)
    assert "not an SGLang or vLLM server command" in exc.value.message


def test_help_read_before_the_real_server_leaves_the_server():
    script = HELP_ONLY + f'os.system("vllm serve meta-llama/Llama-3.1-8B-Instruct {SPEC}")\n'
    cfg = parse_launch_command("import os\n" + script)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct" and cfg.num_steps == 3


@pytest.mark.parametrize("script", [NO_SHELL, SHELL_FALSE])
def test_a_command_string_without_shell_true_is_refused(script):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(script)
    assert "without shell=True" in exc.value.message and "program's name" in exc.value.message
    assert "shell=True" in exc.value.hint and "\n" not in exc.value.message


@pytest.mark.parametrize("call", ['subprocess.run(CMD, shell=True)', 'subprocess.run(shlex.split(CMD))',
                                  'subprocess.run(CMD, shell=use_shell)', 'os.system(CMD)'])
def test_a_string_run_by_a_shell_or_split_stays_the_server(call):
    script = f'import os, shlex, subprocess\nCMD = "vllm serve meta-llama/Llama-3.1-8B-Instruct {SPEC}"\n{call}\n'
    cfg = parse_launch_command(script)
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" and cfg.num_steps == 3
