"""A server started through a program that takes the command as one string (session 12).

`ssh gpu01 "cd /srv && nohup python3 -m sglang.launch_server ... &"` (ssh(1): the remote shell runs
the words after the host) and `tmux new-session -d -s sglang 'python3 -m sglang.launch_server ...'`
(tmux(1) shell-command) are how launch commands are kept in runbooks and agent sessions. The audit
said "not an SGLang or vLLM server command"; the server is the string's command.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 1 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("wrapped", [
    f'ssh gpu01 "cd /srv && nohup {SERVER} > log 2>&1 &"',
    f"tmux new-session -d -s sglang '{SERVER}'",
    f"su - ml -c '{SERVER}'",
])
def test_the_string_command_is_the_server(wrapped):
    launch, findings = _findings(wrapped + "\n")
    assert launch["found"] and launch["engine"] == "sglang" and launch["num_steps"] == 1
    assert [f.code for f in findings] == ["SD101"]


def test_screen_runs_an_argv_not_a_string():
    # screen(1) execs its command's words: `screen -dmS s bash -c '...'` is how a string is run there
    launch, _ = _findings(f"screen -dmS sglang bash -c '{SERVER}'\n")
    assert launch["found"] and launch["num_steps"] == 1
    launch, _ = _findings(f"screen -dmS sglang '{SERVER}'\n")
    assert not launch["found"]


def test_a_message_that_names_a_server_is_not_one():
    argv = split_command('echo "starting vllm serve with model X"\nvllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000\n')
    assert argv[:3] == ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"]
