"""`spec-debug demo` (and any run whose engine is named by the launch command) said "Not checked:
--var python=the server's interpreter, and --var engine=sglang|vllm" above the evidence
"engine forward not read: sglang is not installed in this Python": it asked for the engine the
run already had, beside the interpreter that was missing. With the engine known, only the
interpreter is asked for; with none, both still are."""

from __future__ import annotations

from types import SimpleNamespace

from spec_debug.diagnose.steps import forward_step


def _titles(engine: dict) -> list[str]:
    facts = {"forward": {"reference": {"package": "speculators", "found": True}, "engine": engine}}
    ctx = SimpleNamespace(facts=facts, host_facts=facts, host="demo-gpu01", step_id="reference_forward")
    return [f.title for f in forward_step.check(ctx)]


def test_a_known_engine_not_installed_asks_only_for_the_interpreter():
    engine = {"package": "sglang", "found": False, "reason": "sglang is not installed in this Python"}
    assert _titles(engine) == ["Not checked: --var python=the server's interpreter (the one sglang is installed in)"]


def test_an_unknown_engine_still_asks_for_both():
    engine = {"package": None, "found": False, "reason": "engine unknown: pass --var engine=sglang|vllm"}
    assert _titles(engine) == ["Not checked: --var python=the server's interpreter, and --var engine=sglang|vllm"]
