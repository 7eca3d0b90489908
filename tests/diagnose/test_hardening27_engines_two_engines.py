"""engine step: SGLang and vLLM both installed, no server running and no --var engine (round 27).

A dev venv or an image that ships both engines: the installed packages cannot say which one
serves. The line said 'no single engine installed in this Python', which reads as if none
were; it now names both releases and the interpreter they were found in."""

from __future__ import annotations

from spec_debug.diagnose.steps import engine_step
from spec_debug.probes.registry import ProbeContext


def _check(facts: dict) -> list:
    ctx = ProbeContext(step_id="engine", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return engine_step.check(ctx)


def test_both_engines_installed_are_named_with_where():
    packages = {"sglang": {"version": "0.5.5.post3", "path": "/opt/venv/lib/python3.12/site-packages/sglang"},
                "vllm": {"version": "0.11.1.dev123+g5f76ae224.rocm700", "path": "/opt/venv/x/vllm"}, "torch": None}
    facts = engine_step.parse({"args": {}, "python_executable": "/opt/venv/bin/python", "packages": packages})
    assert facts["resolved_engine"] == ""
    [finding] = _check(facts)
    text = finding.title + " " + " ".join(finding.evidence)
    assert "sglang 0.5.5.post3 and vllm 0.11.1.dev123+g5f76ae224.rocm700 are both installed in /opt/venv/bin/python" in text
    assert "--var engine=sglang|vllm" in finding.title


def test_no_engine_installed_keeps_its_line():
    facts = engine_step.parse({"args": {}, "python_executable": "/usr/bin/python3", "packages": {}})
    [finding] = _check(facts)
    assert "no single engine installed" in finding.title + " ".join(finding.evidence)
