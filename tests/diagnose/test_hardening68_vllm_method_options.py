"""A --speculative-config key of one vLLM method written beside another.

vllm/config/speculative.py (PyPI wheels) refuses at startup: from 0.28.0 `dspark_draft_topk` with
any method but dspark ("dspark_draft_topk is only supported by DSpark"), from 0.29.0
`index_share_for_mtp_iteration` with any method but mtp ("... is only supported with
method='mtp'"), any value but null (false too); 0.34.0 checks both against the method's
supported_options ("{option} is not supported with speculative method 'eagle3'."). The audit
passed such launches clean.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

EAGLE3 = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}


def _sd102(spec: dict, version: str | None, target: str = "meta-llama/Llama-3.1-8B-Instruct"):
    command = f"vllm serve {target} --speculative-config '{json.dumps(spec)}'"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, **({"engine": {"name": "vllm", "version": version}} if version else {}))
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [(f.severity, f.evidence) for f in launch_step.check(ctx) if f.code == "SD102"]


def test_an_mtp_key_with_eagle3_does_not_start():
    spec = {**EAGLE3, "index_share_for_mtp_iteration": False}
    assert _sd102(spec, "0.29.0") == [("error", [
        '--speculative-config "index_share_for_mtp_iteration" with method eagle3: vLLM 0.29.0 refuses to start '
        "(\"index_share_for_mtp_iteration is only supported with method='mtp'\", vllm/config/speculative.py; only "
        'method mtp takes it, any value but null): drop "index_share_for_mtp_iteration"'])]
    [(severity, evidence)] = _sd102(spec, "0.34.0")
    assert severity == "error" and ("(\"index_share_for_mtp_iteration is not supported with speculative method "
                                    "'eagle3'.\"") in evidence[0]


def test_an_mtp_key_before_it_existed_or_release_unknown_is_not_this_refusal():
    assert _sd102({**EAGLE3, "index_share_for_mtp_iteration": True}, None) == []
    # 0.28.0 has no such key (added in 0.29.0): that is what stops it, not the method check
    assert _sd102({**EAGLE3, "index_share_for_mtp_iteration": True}, "0.28.0") == [("error", [
        '--speculative-config "index_share_for_mtp_iteration": vLLM 0.29.0 added this key to SpeculativeConfig; vLLM '
        '0.28.0 refuses it (pydantic: "Unexpected keyword argument") and the server does not start (upgrade vLLM to '
        '0.29.0 or later, or drop it)'])]


def test_an_mtp_key_with_an_mtp_method_is_clean():
    spec = {"method": "deepseek_mtp", "num_speculative_tokens": 1, "index_share_for_mtp_iteration": True}
    assert _sd102(spec, "0.33.0", target="deepseek-ai/DeepSeek-V3.2") == []


def test_a_dspark_key_with_dflash_does_not_start():
    spec = {"method": "dflash", "model": "z-lab/Qwen3-8B-DFlash-b16", "num_speculative_tokens": 15,
            "dspark_draft_topk": 4}
    # 0.27.0 has no such key (added in 0.28.0): refused as an unknown key, not by the method check
    assert _sd102(spec, "0.27.0") == [("error", [
        '--speculative-config "dspark_draft_topk": vLLM 0.28.0 added this key to SpeculativeConfig; vLLM 0.27.0 '
        'refuses it (pydantic: "Unexpected keyword argument") and the server does not start (upgrade vLLM to 0.28.0 '
        'or later, or drop it)'])]
    [(severity, evidence)] = _sd102(spec, "0.28.0")
    assert severity == "error" and '("dspark_draft_topk is only supported by DSpark"' in evidence[0]
    assert _sd102({**spec, "method": "dspark"}, "0.34.0") == []
