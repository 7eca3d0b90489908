"""`"parallel_drafting": true` with an EAGLE method on vLLM 0.34.0.

vLLM 0.34.0 (PyPI wheel, vllm/config/speculative.py `__post_init__`) raises ValueError
"parallel_drafting is only supported by the dflash and dspark methods, not 'eagle3'." and drops the
P-EAGLE drafter classes from its registry (PEagleDraftModel, PeagleLlamaForCausalLM,
PeagleQwen3ForCausalLM are in 0.33.0's); 0.33.0 and earlier ran P-EAGLE (vllm-project/vllm PR
#32887) as eagle3 with parallel drafting. The audit passed the P-EAGLE command clean on 0.34.0.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

PEAGLE = {"method": "eagle3", "model": "/models/llama-1b-peagle", "num_speculative_tokens": 7, "parallel_drafting": True}


def _sd102(spec: dict, version: str | None):
    command = f"vllm serve meta-llama/Llama-3.2-1B-Instruct --speculative-config '{json.dumps(spec)}'"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, **({"engine": {"name": "vllm", "version": version}} if version else {}))
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [(f.severity, f.evidence) for f in launch_step.check(ctx) if f.code == "SD102"]


def test_peagle_on_034_does_not_start():
    assert _sd102(PEAGLE, "0.34.0") == [("error", [
        '--speculative-config "parallel_drafting": true with method eagle3: vLLM 0.34.0 refuses to start '
        "(\"parallel_drafting is only supported by the dflash and dspark methods, not 'eagle3'.\", "
        "vllm/config/speculative.py; P-EAGLE's parallel drafting ran on eagle/eagle3 up to 0.33): serve a P-EAGLE "
        'draft on vLLM 0.33 or older, or drop "parallel_drafting" for a draft trained to draft one token a pass'])]


@pytest.mark.parametrize("version", ["0.33.0", "0.16.0", None])
def test_peagle_before_034_is_clean(version):
    assert _sd102(PEAGLE, version) == []


def test_dflash_with_parallel_drafting_still_starts_on_034():
    spec = {"method": "dflash", "model": "z-lab/Qwen3-8B-DFlash-b16", "num_speculative_tokens": 15,
            "parallel_drafting": True}
    assert _sd102(spec, "0.34.0") == []
    assert _sd102({**PEAGLE, "parallel_drafting": False}, "0.34.0") == []
