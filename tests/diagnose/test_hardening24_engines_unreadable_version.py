"""engine step: a version the conventions table cannot place is said once (round 24).

`--var engine_version=custom-build` (or a fork's own label in its dist-info) reached every
later step: configs, hidden_layout and drafter_eval each failed with SD003 'ValueError: cannot
read engine version'. Now the engine step names it once (SD004, the fix) and the later steps
get no version, i.e. the newest conventions, and run."""

from __future__ import annotations

from spec_debug.diagnose.steps import engine_step
from spec_debug.probes.registry import ProbeContext


def _check(facts: dict) -> list:
    ctx = ProbeContext(step_id="engine", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return engine_step.check(ctx)


def test_a_var_that_is_no_version_is_named_once_and_not_passed_on():
    facts = engine_step.parse({"args": {"engine": "sglang", "engine_version": "custom-build"},
                               "python_executable": "/usr/bin/python3", "packages": {}})
    assert facts["resolved_engine_version"] == "" and facts["engine"]["version"] is None
    findings = _check(facts)
    assert [f.code for f in findings] == ["SD004"]
    assert "'custom-build' (--var engine_version) is not a release number" in findings[0].title + " ".join(
        findings[0].evidence)


def test_a_forks_label_in_the_servers_metadata_is_named_too():
    server = {"pid": 7, "python": "/opt/venv/bin/python", "packages": {"vllm": {"version": "nv-internal",
                                                                                 "path": "/opt/x/vllm"}}}
    facts = engine_step.parse({"args": {"launch_engine": "vllm"}, "server": server, "packages": {}})
    assert facts["resolved_engine_version"] == ""
    assert [f.code for f in _check(facts)] == ["SD004"]


def test_release_numbers_pass_as_before():
    for version in ("0.5.4.post1", "v0.11.1rc2", "0.10.1.1+cu126", "latest"):
        facts = engine_step.parse({"args": {"engine": "vllm", "engine_version": version}, "packages": {}})
        assert facts["resolved_engine_version"] == version and _check(facts) == []
