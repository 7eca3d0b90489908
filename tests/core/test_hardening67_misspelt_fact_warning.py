"""An unguarded read of a misspelt fact (`facts.sped` where a step captures speed) is said when
the playbook is loaded, as a warning: `playbooks validate` said "ok" and the typo came out only
on the hosts, as each host's step error. Not refused (the run still fails the step and names the
close fact: tests/core/test_hardening_runner_unset_fact.py), and a name like no captured one,
or one an earlier probe may set, is left alone."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: nf
steps:
  - id: measure
    run: echo speed=5
    capture:
      - regex: 'speed=(?P<speed>\\d+)'
  - id: use
    run: echo ok
    expect:
      - that: facts.sped > 1
  - id: shout
    run: echo "{{ facts.sped }}"
  - id: absent
    run: echo ok
    expect:
      - that: facts.never is not defined
"""

WARNING = ("step 'use' reads facts.sped in expect.that:, but no step captures 'sped', so it is never set and the step "
           "fails on every host")


def test_validate_warns_of_an_unguarded_misspelt_fact_and_passes(tmp_path):
    playbook = tmp_path / "nf.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0, result.stdout + result.stderr
    assert f"nf.yaml:10:15: {WARNING} (at steps[1].expect[0].that)" in result.stderr, result.stderr
    assert "did you mean facts.speed? ('measure' captures it)" in result.stderr, result.stderr
    assert "step 'shout' reads facts.sped in run:" in result.stderr, result.stderr
    assert "facts.never" not in result.stderr, result.stderr


def test_run_warns_first_and_still_fails_the_step_naming_the_close_fact(tmp_path):
    playbook = tmp_path / "nf.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert WARNING in result.stderr, result.stderr
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["use"]["status"] == "error" and "did you mean facts.speed?" in steps["use"]["message"], steps["use"]


def test_no_warning_when_an_earlier_probe_may_set_the_fact(tmp_path):
    playbook = tmp_path / "probe.yaml"
    playbook.write_text(PLAYBOOK.replace("steps:\n", "steps:\n  - id: info\n    probe: host_info\n", 1))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0 and "warning" not in result.stderr, result.stdout + result.stderr
