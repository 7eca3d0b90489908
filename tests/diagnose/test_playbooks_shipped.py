"""The shipped playbooks validate, teach every step, and honour the vars contract (issue #5)."""

from __future__ import annotations

import pytest

from spec_debug.playbook.loader import load_playbook
from spec_debug.probes.registry import all_probes

SHIPPED = ("perf_regression", "drafter_accuracy", "hidden_state_format")
PERF_VARS = {"server_cmdline", "engine", "engine_version", "draft_model", "target_model", "hidden_states",
             "serving_dump", "claimed_accuracy", "baseline_tok_s", "measured_tok_s", "server_log", "python",
             "device"}


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_playbook_validates_and_every_step_teaches(name):
    playbook = load_playbook(name).playbook
    probes = all_probes()
    for step in playbook.steps:
        assert len(step.why.split()) >= 25, f"{name}/{step.id}: the why should teach"
        assert step.title and step.timeout
        assert step.probe in probes, f"{name}/{step.id}: unknown probe {step.probe}"
        # every probe a playbook uses parses and checks on the controller
        assert probes[step.probe].parse and probes[step.probe].check


def test_perf_regression_vars_contract_and_order():
    playbook = load_playbook("perf_regression").playbook
    assert PERF_VARS <= set(playbook.vars)
    optional = PERF_VARS - {"python", "device"}
    assert all(playbook.vars[v] == "" for v in optional), "every input is optional (empty default)"
    assert [s.id for s in playbook.steps] == ["launch_flags", "engine", "configs", "vocab", "hidden_layout",
                                              "reference_forward", "drafter_eval", "throughput"]


def test_probe_registrations_name_the_codes_they_raise():
    probes = all_probes()
    raised = {code for spec in probes.values() for code in spec.codes}
    from spec_debug.diagnose.catalog import CATALOG

    from spec_debug.runner.runner_findings import RUNNER_CODES

    diagnostic_codes = set(CATALOG) - set(RUNNER_CODES)  # SD0xx come from the runner itself
    assert raised <= set(CATALOG)
    assert diagnostic_codes <= raised, sorted(diagnostic_codes - raised)
