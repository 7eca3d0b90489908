"""vLLM's MTP method, no draft, on a target with no MTP layer: the server does not start.

`vllm serve Qwen/Qwen3-4B-Instruct-2507 --speculative-config '{"method":"qwen3_next_mtp",
"num_speculative_tokens":3}'`: SpeculativeConfig takes the target as the draft, its model_type
(qwen3) is none that `hf_config_override` turns into an MTP type, and the method check raises
NotImplementedError ("Unsupported speculative method: 'mtp'", vllm/config/speculative.py). With
K 1 the audit said only that the target has no MTP module (SD101); with K > 1 it said nothing.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

QWEN3_4B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 2560,
            "num_hidden_layers": 36, "vocab_size": 151936, "torch_dtype": "bfloat16"}
QWEN3_NEXT = {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "num_hidden_layers": 48}


def _findings(k, config, method="qwen3_next_mtp"):
    command = ("vllm serve some-org/target --speculative-config "
               f"'{{\"method\":\"{method}\",\"num_speculative_tokens\":{k}}}'")
    facts = launch_step.parse({"source": "var", "cmdline": command,
                               "models": {"some-org/target": {"path": "/hf/target", "config": config}}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return launch_step.check(ctx)


@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("method", ["qwen3_next_mtp", "mtp"])
def test_a_target_with_no_mtp_path_is_refused_at_startup(k, method):
    (sd102,) = [f for f in _findings(k, QWEN3_4B, method) if f.code == "SD102"]
    line = " ".join(sd102.evidence)
    assert "Unsupported speculative method" in line and "server does not start" in line and "(qwen3)" in line


def test_a_family_vllm_makes_an_mtp_draft_of_is_not_refused():
    # Qwen3-Next's config counts no layer under the keys read, but vLLM rewrites it to qwen3_next_mtp
    assert not [f for f in _findings(2, QWEN3_NEXT) if f.code == "SD102"]
