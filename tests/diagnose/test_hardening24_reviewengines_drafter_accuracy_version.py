"""drafter_accuracy.yaml hands drafter_eval the engine version the engine step resolved
(review of round 24).

Round 24 made the engine step name an unplaceable version ("custom-build", a fork's label)
once and set facts.resolved_engine_version to "" so later steps use the newest conventions;
perf_regression and hidden_state_format pass `facts.resolved_engine_version |
default(engine_version)` on, but drafter_accuracy passed the raw var, so a run with those facts
would still hand "custom-build" to drafter_eval (SD003 'cannot read engine version'). Without
the facts (this playbook has no engine step of its own) the var is passed as before."""

from __future__ import annotations

from spec_debug.playbook.loader import load_playbook
from spec_debug.playbook.templating import TemplateSite, render


def _drafter_eval_version(context: dict) -> str:
    playbook = load_playbook("drafter_accuracy").playbook
    [step] = [s for s in playbook.steps if s.id == "drafter_eval"]
    return render(step.with_["engine_version"], context, TemplateSite("drafter_eval", "with.engine_version"))


def test_the_resolved_version_wins_over_the_raw_var():
    context = {"engine_version": "custom-build", "facts": {"resolved_engine_version": ""}}
    assert _drafter_eval_version(context) == ""
    assert _drafter_eval_version({"engine_version": "custom-build",
                                  "facts": {"resolved_engine_version": "0.5.4"}}) == "0.5.4"


def test_without_an_engine_step_the_var_passes_as_before():
    assert _drafter_eval_version({"engine_version": "0.11.1", "facts": {}}) == "0.11.1"
    assert _drafter_eval_version({"engine_version": "", "facts": {}}) == ""
