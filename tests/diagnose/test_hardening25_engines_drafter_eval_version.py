"""drafter_eval places the engine version as the engine step does (round 25).

drafter_accuracy has no engine step, so `--var engine_version=custom-build` (a fork's label)
reached the probe raw: the engine run raised 'cannot read engine version' (serve_plan ->
engines.parse_version) after the reference run, and the probe's whole output, the reference
accuracy too, was lost (SD003). An untagged source build (setuptools-scm's 0.1.devN) was
taken silently as the newest. Both now take the newest conventions and say so with the engine
step's own line. evaluate_drafter is reduced to what it does with the version, so no forward
runs (the same case on a speculators-saved world was checked by hand)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import engine_step
from spec_debug.eagle3 import api, engines
from spec_debug.probes import drafter_eval
from spec_debug.probes.registry import ProbeContext


@pytest.fixture
def run(monkeypatch, tmp_path):
    for name in ("draft", "target"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text("{}")
    seen: list = []

    def evaluate(*_a, engine_version=None, semantics="reference", **_k):
        if semantics != "reference":
            seen.append(engine_version)
            engines.parse_version(engine_version)  # what serve_plan does with it
        return {"full_accuracy": [0.7], "notes": []}

    monkeypatch.setattr(api, "evaluate_drafter", evaluate)

    def probe(version: str) -> tuple[list, dict]:
        seen.clear()
        return seen, drafter_eval.run({"draft_model": str(tmp_path / "draft"), "target_model": str(tmp_path / "target"),
                                       "hidden_states": str(tmp_path / "data"), "engine": "vllm",
                                       "engine_version": version})
    return probe


def _engine_step_line(version: str) -> str:
    facts = engine_step.parse({"args": {"engine": "vllm", "engine_version": version}, "packages": {}})
    ctx = ProbeContext(step_id="engine", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    [finding] = engine_step.check(ctx)
    return finding.evidence[0].replace("(--var engine_version)", "(engine_version)")


@pytest.mark.parametrize("version", ["custom-build", "0.1.dev7557+g977180c"])
def test_an_unplaceable_version_keeps_both_runs_and_is_said_once(run, version):
    seen, out = run(version)
    assert seen == [None]  # the newest conventions
    assert out["reference"]["full_accuracy"] and out["engine"]["full_accuracy"]
    assert out["engine_version_note"] == out["engine"]["notes"][0] == _engine_step_line(version)


def test_a_release_number_passes_as_before(run):
    seen, out = run("0.11.1")
    assert seen == ["0.11.1"] and "engine_version_note" not in out
