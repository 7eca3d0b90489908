"""`--speculative-num-steps 3.5` (or draft tokens `4.0`) in an SGLang command: the audit said
"Not checked: --var server_cmdline='...' (the server's full command line)", asking for the
command the user had just given. The server's own argparse (type=int) refuses such a value and
does not start; the finding now says to write a whole number, and why."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

BASE = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B ")


@pytest.mark.parametrize(("flags", "flag", "value"), [
    ("--speculative-num-steps 3.5 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
     "--speculative-num-steps", "3.5"),
    ("--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4.0",
     "--speculative-num-draft-tokens", "4.0"),
    ("--speculative-num-steps 3 --speculative-eagle-topk 1e9 --speculative-num-draft-tokens 4",
     "--speculative-eagle-topk", "1e9"),
])
def test_a_value_that_is_no_whole_number_says_how_to_fix_it(flags, flag, value):
    facts = launch_step.parse({"source": "var", "cmdline": BASE + flags, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    [finding] = launch_step.check(ctx)
    # the server does not start: an error (hardening69), whose fix is the parser's own
    assert (finding.code, finding.severity) == ("SD102", "error")
    assert "server_cmdline" not in finding.remediation
    assert f"(write a whole number: the server's own parser refuses '{value}'" in finding.remediation
    assert f"argument {flag}: invalid int value" in finding.remediation
    assert f"{flag} expects an integer, got '{value}'" in finding.evidence[0]
