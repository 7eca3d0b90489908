"""engine step and drafter_eval say the same about an untagged build written with a `v` (review of round 25).

`--var engine_version=v0.1.dev19253+g5f76ae224` (the setuptools-scm version of an untagged vLLM
checkout, written as a git tag is) was read as the newest release by the conventions table but
not named by the engine step, whose own copy of the untagged-build pattern did not strip the
`v`; the drafter_eval probe (engines.unplaceable_version) named it. Both use that one function."""

from __future__ import annotations

from spec_debug.diagnose.steps import engine_step
from spec_debug.probes.registry import ProbeContext


def test_a_v_prefixed_untagged_build_is_named_once():
    facts = engine_step.parse({"args": {"engine": "vllm", "engine_version": "v0.1.dev19253+g5f76ae224"},
                               "packages": {}})
    assert facts["resolved_engine_version"] == ""
    ctx = ProbeContext(step_id="engine", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    [line] = engine_step.check(ctx)
    assert line.code == "SD004" and "source build without release tags" in " ".join(line.evidence)
