"""vLLM methods that only some releases have.

The audit took vLLM's method names as one list for every release, so `"method": "mlp_speculator"`
(the vLLM docs' MLP speculator command, docs/features/speculative_decoding/mlp.md) passed clean on
vLLM 0.33.0, whose SpeculativeMethod has no mlp_speculator or medusa any more (the PyPI wheel's
vllm/config/speculative.py; 0.32.0 has both), and `"method": "custom_class"` passed on 0.34.0,
which replaced it with plugin-registered methods ("Unsupported speculative method") and on 0.21.0,
before it was added (0.22.0).
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

MLP = {"model": "ibm-ai-platform/llama3-8b-accelerator", "draft_tensor_parallel_size": 1, "method": "mlp_speculator"}
CUSTOM = {"method": "custom_class", "model": "my_pkg.proposers.MyProposer", "num_speculative_tokens": 3}


def _sd102(spec: dict, version: str | None):
    command = f"vllm serve meta-llama/Meta-Llama-3-8B-Instruct --speculative-config '{json.dumps(spec)}'"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, **({"engine": {"name": "vllm", "version": version}} if version else {}))
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [(f.severity, f.evidence) for f in launch_step.check(ctx) if f.code == "SD102"]


def test_mlp_speculator_is_gone_from_033():
    assert _sd102(MLP, "0.33.0") == [("error", [
        '--speculative-config "method": "mlp_speculator": vLLM 0.33.0 removed this method, and 0.33.0 refuses it '
        "at startup: the server does not start (serve this draft with vLLM before 0.33.0, or an EAGLE-3 draft)"])]


@pytest.mark.parametrize("version", ["0.32.0", "0.20.0", None])
def test_mlp_speculator_before_033_is_clean(version):
    assert _sd102(MLP, version) == []


def test_medusa_is_gone_from_033():
    [(severity, evidence)] = _sd102({"method": "medusa", "model": "abhigoyal/vllm-medusa-llama-68m-random",
                                     "num_speculative_tokens": 3}, "0.34.0")
    assert severity == "error" and evidence[0].startswith(
        '--speculative-config "method": "medusa": vLLM 0.33.0 removed this method, and 0.34.0 refuses it')


def test_custom_class_only_022_to_033():
    assert _sd102(CUSTOM, "0.22.0") == [] and _sd102(CUSTOM, "0.33.0") == []
    assert _sd102(CUSTOM, "0.21.0") == [("error", [
        '--speculative-config "method": "custom_class": vLLM 0.21.0 has no such method (added in 0.22.0): '
        "SpeculativeConfig refuses it at startup and the server does not start (upgrade vLLM)"])]
    [(severity, evidence)] = _sd102(CUSTOM, "0.34.0")
    assert severity == "error" and "vLLM 0.34.0 removed this method" in evidence[0]


def test_an_import_path_without_a_method_on_034():
    spec = {"model": "my_pkg.proposers.MyProposer", "num_speculative_tokens": 3}
    assert _sd102(spec, "0.33.0") == []
    assert _sd102(spec, "0.34.0") == [("error", [
        '--speculative-config "model": "my_pkg.proposers.MyProposer" is a proposer class\'s import path, which only '
        "vLLM 0.22.0 .. 0.33 read as one (method custom_class): vLLM 0.34.0 takes it for a draft model's name, finds "
        "no such model, and the server does not start"])]
