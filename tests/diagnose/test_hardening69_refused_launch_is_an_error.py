"""A launch command the engine's own parser refuses is a server that does not start: an error.

The launch reader stops on a command SGLang's or vLLM's argparse (or its config validation)
rejects, and words it so ("argparse exits with 'unrecognized arguments' and the server does not
start"). The audit turned that stop into SD004 "Not checked: ..." (info), so `spec-debug run` of
`python -m sglang.launch_server ... -tp 2` or of a vLLM `"num_speculative_tokens": 0` exited 0 as
a clean, partial diagnosis, while the same kind of refusal found one step later (an algorithm the
release lacks, a tree on a backend that cannot draw it) is SD102 "The engine refuses this launch
command at startup" at error severity. Both are now that SD102 error.

What the text cannot settle stays SD004: a flag whose value ends the line (a `ps` line cut at the
terminal width looks the same), a value the shell fills in, a file the text only names.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.checks.launch_flags import REFUSED_AT_STARTUP
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
SGLANG = (f"python3 -m sglang.launch_server --model-path {TARGET} --speculative-algorithm EAGLE3 "
          f"--speculative-draft-model-path {DRAFT} --speculative-num-steps 3 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 4")


def _vllm(**spec) -> str:
    return f"vllm serve {TARGET} --speculative-config '{json.dumps({'method': 'eagle3', 'model': DRAFT, **spec})}'"


def _audit(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx), facts


@pytest.mark.parametrize("command, said, fix", [
    (SGLANG + " -tp 2", "sglang: -tp is not an SGLang flag", "write --tp-size VALUE"),
    (SGLANG + " --speculative_num_steps 3", "sglang: --speculative_num_steps is not an SGLang flag",
     "write --speculative-num-steps"),
    (SGLANG.replace("--speculative-eagle-topk 1", "--speculative-eagle-topk one"),
     "sglang: --speculative-eagle-topk expects an integer, got 'one'", "write a whole number"),
    (_vllm(num_speculative_tokens=0), "vllm: speculative config num_speculative_tokens must be greater than 0",
     'write "num_speculative_tokens": 3 in --speculative-config'),
    (f"vllm serve {TARGET} --speculative-config \"{{'method': 'eagle3', 'model': '{DRAFT}', "
     "'num_speculative_tokens': 3}\"", "is Python's dict syntax, not JSON", None),
])
def test_a_command_the_engine_refuses_is_an_sd102_error(command, said, fix):
    findings, facts = _audit(command)
    [finding] = findings
    assert (finding.code, finding.severity, finding.title) == ("SD102", "error", REFUSED_AT_STARTUP)
    assert said in finding.evidence[0]
    if fix is not None:
        assert fix in finding.remediation
    assert facts["launch"]["raised"] == ["SD102"]


@pytest.mark.parametrize("command, said", [
    # the value may be what the terminal cut off: the text cannot tell
    (f"vllm serve {TARGET} --speculative-config", "vllm: --speculative-config has no value"),
    (f"vllm serve {TARGET} --speculative-config.method", "vllm: --speculative-config.method has no value"),
    # the shell computes it when the server starts
    (SGLANG.replace("--speculative-num-steps 3", "--speculative-num-steps $STEPS"), "$STEPS"),
    ("echo hello", "not an SGLang or vLLM server command"),
])
def test_what_the_text_cannot_settle_stays_not_checked(command, said):
    findings, _ = _audit(command)
    [finding] = findings
    assert (finding.code, finding.severity) == ("SD004", "info")
    assert said in finding.evidence[0]


def test_pasted_python_that_does_not_parse_stays_not_checked():
    # a paste cut short fails Python's parser too: no sure sign of what the server was given
    code = ("from vllm import LLM\nllm = LLM(model='meta-llama/Llama-3.1-8B-Instruct', speculative_config={\n"
            "    'method': 'eagle3' 'model': 'd', 'num_speculative_tokens': 3})\n")
    findings, _ = _audit(code)
    [finding] = findings
    assert (finding.code, finding.severity) == ("SD004", "info")
    assert "does not parse" in finding.evidence[0]
