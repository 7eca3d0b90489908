"""`steps.ID.facts.NAME` for a fact step ID never sets validated ok: its capture: (or, for a fetch
step, its fixed facts) is known at load, but only `facts.NAME` was checked. At run time the
check failed as SD003 ("'dict object' has no attribute 'speeed'"), a warning: the run PASSED
with the check never made. It is now refused where it is written, with the name meant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: speed
steps:
  - id: bench
    run: echo 'speed=42 tok/s'
    capture: [{{regex: 'speed=(?P<speed>\\d+)', type: int}}]
  - id: logs
    fetch: {{src: {log}, dest: logs}}
  - id: check
    run: echo checked
    expect:
      - that: "{that}"
"""


def _write(tmp_path: Path, that: str) -> Path:
    log = tmp_path / "server.log"
    log.write_text("ok\n", encoding="utf-8")
    playbook = tmp_path / "speed.yaml"
    playbook.write_text(PLAYBOOK.format(log=json.dumps(str(log)), that=that), encoding="utf-8")
    return playbook


@pytest.mark.parametrize(("that", "message", "hint"), [
    ("steps.bench.facts.speeed > 10", "reads steps.bench.facts.speeed, but step 'bench' never sets 'speeed'",
     "did you mean steps.bench.facts.speed?"),
    ("steps.bench.facts.latency is defined and steps.bench.facts.latency < 5",
     "reads steps.bench.facts.latency, but step 'bench' never sets 'latency'", "step 'bench' sets speed"),
    ("steps.logs.facts.fetchd | length > 0", "reads steps.logs.facts.fetchd, but step 'logs' never sets 'fetchd'",
     "did you mean steps.logs.facts.fetched?"),
])
def test_a_fact_the_step_never_sets_is_refused_with_the_name_meant(tmp_path: Path, that: str, message: str, hint: str) -> None:
    playbook = _write(tmp_path, that)
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    assert validated.stderr.splitlines()[:2] == [
        f"error: {playbook}:11:15: step 'check' {message} (at steps[2].expect[0].that)", f"  hint: {hint}",
    ]


def test_the_facts_the_steps_set_still_validate_and_run(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "steps.bench.facts.speed > 10 and steps.logs.facts.fetched | length == 1")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["passed", "passed", "passed"]
