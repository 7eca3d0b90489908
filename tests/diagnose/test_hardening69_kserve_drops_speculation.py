"""A KServe server that starts but drops the speculative settings is an SD102 warning, not SD004.

KServe's huggingfaceserver adds vLLM's options under their dashed names to a plain argparse
parser and reads it with parse_known_args (kserve/kserve python/huggingfaceserver/
huggingfaceserver/__main__.py), so `--speculative_config '{...}'` (vllm-ascend's docs' spelling)
is dropped, and `--backend huggingface` serves with transformers, not vLLM. The server starts and
answers every request, without the speculation the command asks for, and says nothing. The audit
said so in an SD004 "Not checked" line (info): a clean, partial diagnosis, the same as a command
it could not read, while a speculative loss like this is what SD102 calls the server silently
running a different configuration from the one written.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})
KSERVE = "python3 -m huggingfaceserver --model_name=llama3 --model_id=meta-llama/Llama-3.1-8B-Instruct"


def _audit(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx), facts


@pytest.mark.parametrize("command, said, fix", [
    (f"{KSERVE} --speculative_config '{SPEC}'", "--speculative_config is not one of its options",
     "write --speculative-config"),
    (f"{KSERVE} --backend=huggingface --speculative-config '{SPEC}'",
     "--backend huggingface does not serve with vLLM", "--backend vllm"),
])
def test_a_server_that_drops_its_speculation_is_an_sd102_warning(command, said, fix):
    findings, facts = _audit(command)
    [finding] = findings
    assert (finding.code, finding.severity, finding.title) == (
        "SD102", "warning", "The server runs this launch command without speculative decoding")
    assert said in finding.evidence[0] and "the server runs without speculative decoding" in finding.evidence[0]
    assert fix in finding.remediation and finding.facts["fix"].startswith(fix)
    assert facts["launch"]["raised"] == []  # (the error codes only: this server runs)


def test_the_dashed_spelling_is_audited_as_speculation():
    findings, facts = _audit(f"{KSERVE} --speculative-config '{SPEC}'")
    assert facts["launch"]["found"] is True and facts["launch"]["algorithm"] == "EAGLE3"
    assert not any(f.title == "The server runs this launch command without speculative decoding" for f in findings)
