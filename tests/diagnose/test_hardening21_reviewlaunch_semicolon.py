"""A `;` written against a word ends the command there (session 12 review).

bash ends a word at `;` with or without a space (bash(1) DEFINITIONS: `;` is a metacharacter).
The audit split only at a `;` standing alone, so `... --speculative-num-draft-tokens 2; tail -f
server.log` gave the server the value '2;' ('expects an integer'), and the string runners'
`"export HF_HOME=...; vllm serve ..."` (7d87fc8) kept `export` and its words before the server.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_semicolon_against_the_last_value():
    launch, findings = _findings("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
                                 "--speculative-draft-model-path d --speculative-num-steps 1 --speculative-eagle-topk 1 "
                                 "--speculative-num-draft-tokens 2; tail -f server.log")
    assert launch["found"] and launch["num_draft_tokens"] == 2
    assert [f.code for f in findings] == ["SD101"]


def test_an_export_before_the_server_in_a_tmux_string():
    argv = split_command('tmux new-session -d -s vllm "export HF_HOME=/data/hf; vllm serve m --port 8000"')
    assert argv == ["vllm", "serve", "m", "--port", "8000"]
    # an escaped `\\;` (find -exec) is a word, not the end of a command
    assert split_command("find /tmp -name '*.lock' -exec rm {} \\; ; vllm serve m") == ["vllm", "serve", "m"]
