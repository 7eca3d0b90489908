"""`&&`, `||`, `|`, `|&` and `&` written against a word end the command there (session 13).

bash(1) DEFINITIONS: `|` and `&` are metacharacters, so `--port 30000&& curl ...` gives the
server the word 30000 and starts curl as a second command. The audit split only at operators
standing alone: the server got '30000&&' and curl's words as its own, and a `cd /srv&&python3 -m
sglang.launch_server ...` line was read as `cd`'s words. Redirections (`2>&1`, `&>log`, `>&2`,
`>|log`) stay one word, as bash reads them.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

_SERVER = ("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path d --speculative-num-steps 1 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 2 --port 30000")
_ARGV = _SERVER.split()


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("command", [
    _SERVER + "&& curl localhost:30000/health",
    _SERVER + "|| echo failed",
    _SERVER + " 2>&1|tee server.log",
    _SERVER + " |&tee server.log",
    _SERVER + " &>server.log&",
    "cd /srv&&" + _SERVER,
    "source .venv/bin/activate&&" + _SERVER + " >|server.log 2>&1&",
    _SERVER.replace(" --port 30000", "") + " --port 30000&>server.log&",
])
def test_an_operator_against_a_word_ends_the_command(command):
    assert split_command(command) == _ARGV


def test_a_redirection_against_a_word_is_no_part_of_it():
    # (a word of digits before `>` is its file descriptor, as bash reads `2>&1`)
    assert split_command(_SERVER + " --trust-remote-code>server.log 2>&1 &") == [*_ARGV, "--trust-remote-code"]


def test_the_server_after_cd_is_audited():
    launch, findings = _findings("cd /srv&&" + _SERVER + "&& curl localhost:30000/health")
    assert launch["found"] and launch["num_draft_tokens"] == 2
    assert [f.code for f in findings] == ["SD101"]


def test_operators_inside_quotes_and_escaped_stay_words():
    assert split_command("vllm serve m --chat-template 'a&&b|c' --served-model-name x\\&y") == [
        "vllm", "serve", "m", "--chat-template", "a&&b|c", "--served-model-name", "x&y"]
