"""A launch command that was read whole and that the engine refuses (here vLLM with
`"num_speculative_tokens": 0`, which SpeculativeConfig's `gt=0` rejects at startup) came back as
SD004 "Not checked: --var server_cmdline='python -m sglang.launch_server ...'": an SGLang example
for a vLLM command the user had already given. The way out is now the fix the parse error names,
and the hint reads as an instruction, not a bare JSON fragment.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


def _vllm(k) -> str:
    spec = json.dumps({"method": "eagle3", "model": DRAFT, "num_speculative_tokens": k})
    return f"vllm serve {TARGET} --speculative-config '{spec}'"


@pytest.mark.parametrize("k, fix", [(0, 'write "num_speculative_tokens": 3 in --speculative-config'),
                                    (2.5, 'write "num_speculative_tokens": 2 in --speculative-config'),
                                    ("three", 'write "num_speculative_tokens": 3 in --speculative-config')])
def test_a_refused_vllm_value_names_its_fix_not_an_sglang_command(k, fix):
    [line] = _findings(_vllm(k))
    # a server that does not start is an error (hardening69), no longer SD004 "Not checked: {fix}"
    assert (line.code, line.severity) == ("SD102", "error")
    assert line.facts["fix"] == fix
    assert f"({fix})" in line.remediation
    assert "sglang" not in line.remediation
    assert line.evidence[0].endswith(f"; {fix}")


def test_an_unparsed_sglang_flag_names_the_flag_to_write():
    [line] = _findings(f"python -m sglang.launch_server --model-path {TARGET} -tp 8 "
                       f"--speculative-algorithm EAGLE3 --speculative-draft-model-path {DRAFT}")
    assert (line.code, line.severity) == ("SD102", "error")
    assert line.facts["fix"] == "write --tp-size VALUE"
