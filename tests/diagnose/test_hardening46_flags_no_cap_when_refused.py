"""SD101 ("at most one drafted token per round") beside an SD102 startup refusal: vLLM's dotted
`--speculative-config.num_speculative_tokens 1` after a JSON --speculative-config replaces the JSON
whole, and the config left has no draft, so vLLM does not start. The audit reported both the
refusal and a depth cap of a server that never runs (it already dropped SD101 beside the MTP
refusal). Every startup refusal now drops it; a refusal only on newer releases keeps it.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"


def _codes(command: str) -> list[str]:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return [f.code for f in launch_step.check(ctx)]


def test_a_refused_k1_launch_is_one_refusal_not_a_cap():
    spec = json.dumps({"method": "eagle3", "model": DRAFT})
    assert _codes(f"vllm serve {TARGET} --speculative-config '{spec}' "
                  "--speculative-config.num_speculative_tokens 1") == ["SD102"]


def test_a_k1_launch_that_starts_keeps_its_cap():
    spec = json.dumps({"method": "eagle3", "model": DRAFT, "num_speculative_tokens": 1})
    assert _codes(f"vllm serve {TARGET} --speculative-config '{spec}'") == ["SD101"]
