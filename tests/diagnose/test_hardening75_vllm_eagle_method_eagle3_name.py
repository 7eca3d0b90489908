"""vLLM `"method": "eagle"` with a draft named as an EAGLE-3 head, its config not read.

vllm/config/speculative.py `SpeculativeConfig.__post_init__` guesses the method from the draft's
name only when none is written (`if self.method in ("eagle", "eagle3"): pass`, then the
`"eagle-"` / `"eagle3"` tests; so in v0.10 and on main): a written "eagle" stays EAGLE-1, and vLLM
builds the EAGLE-1 draft for an EAGLE-3 head. SGLang's `--speculative-algorithm EAGLE` with such a
name was already a SD103 warning (hardening27); the same command on vLLM got no finding at all.
Now it gets the same warning with vLLM's fix ("method": "eagle3").
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"


def _findings(spec: str, models: dict | None = None):
    cmd = f"vllm serve {TARGET} --speculative-config '{spec}'"
    facts = launch_step.parse({"source": "var", "cmdline": cmd, "models": models or {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


@pytest.mark.parametrize("draft", ["yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "AngelSlim/Qwen3-8B_eagle3",
                                   "/models/llama-3.1-8b-eagle3"])
def test_method_eagle_with_an_eagle3_named_draft_is_a_warning(draft):
    (finding,) = _findings(f'{{"method": "eagle", "model": "{draft}", "num_speculative_tokens": 3}}')
    assert (finding.code, finding.severity) == ("SD103", "warning")
    assert finding.evidence[0] == 'launch command: --speculative-config "method": "eagle"'
    assert draft in finding.evidence[1]
    assert '"method": "eagle3"' in finding.remediation


@pytest.mark.parametrize("spec", [
    # the right method
    '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}',
    # no method: vLLM infers eagle3 from this very name
    '{"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}',
    # an EAGLE-1 head (the vLLM docs' own example)
    '{"method": "eagle", "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "num_speculative_tokens": 3}',
    # only a folder above the head says eagle3
    '{"method": "eagle", "model": "/models/eagle3-runs/llama-eagle-head", "num_speculative_tokens": 3}',
])
def test_no_warning_where_method_and_name_agree_or_the_name_does_not_say(spec):
    assert [f.code for f in _findings(spec)] == []


def test_a_read_config_still_decides_and_is_an_error():
    draft = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
    models = {draft: {"path": "/hf/eagle3", "config": {"architectures": ["LlamaForCausalLMEagle3"],
                                                        "model_type": "llama", "num_hidden_layers": 1}}}
    findings = [f for f in _findings(f'{{"method": "eagle", "model": "{draft}", "num_speculative_tokens": 3}}', models)
                if f.code == "SD103"]
    assert [(f.code, f.severity) for f in findings] == [("SD103", "error")]
