"""A playbook whose `when:` reads a fact that a *later* step captures: the author wrote the
gate above the step it depends on. Steps run in file order, so the gate never sees the fact:
behind an `is defined` guard the step was skipped on every host and the run passed, having
checked nothing; `playbooks validate` said ok."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GATE_ABOVE_ITS_CAPTURE = """\
name: gate_order
steps:
  - id: flags
    title: Speculation flags
    when: facts.engine is defined and facts.engine == 'sglang'
    run: echo --speculative-num-steps 1
    capture: [{regex: '--speculative-num-steps (?P<num_steps>\\d+)', type: int}]
    expect: [{that: facts.num_steps > 1, finding: {code: SD101}}]
  - id: engine
    run: echo engine=sglang
    capture: [{regex: 'engine=(?P<engine>\\w+)'}]
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_validate_names_the_gate_the_fact_and_the_step_that_captures_it(tmp_path):
    (tmp_path / "p.yaml").write_text(GATE_ABOVE_ITS_CAPTURE)
    proc = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    message = " ".join(proc.stderr.split())
    assert "p.yaml:5:11:" in message  # the when: value
    assert "step 'flags' reads facts.engine in when:, but only a later step captures it ('engine', step 2)" in message
    assert "move step 'engine' above 'flags'" in message
    assert "Traceback" not in proc.stderr


def test_run_refuses_it_before_touching_a_host_instead_of_passing_having_checked_nothing(tmp_path):
    (tmp_path / "p.yaml").write_text(GATE_ABOVE_ITS_CAPTURE)
    proc = _cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    # Before: exit 0, PASSED, SD101 never looked for (flags skipped: "when ... is false").
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "only a later step captures it" in " ".join(proc.stderr.split())
    assert not list(tmp_path.glob("runs/*/run.json"))


def test_fixed_order_runs_and_finds_the_problem(tmp_path):
    steps = GATE_ABOVE_ITS_CAPTURE.split("  - id: engine")
    fixed = steps[0].replace("steps:\n", "steps:\n  - id: engine" + steps[1])
    (tmp_path / "p.yaml").write_text(fixed)
    proc = _cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    assert [f["code"] for f in record["findings"]] == ["SD101"]


@pytest.mark.parametrize("body, where", [
    # a run: template filled from a later capture
    ("  - id: a\n    run: echo {{ facts.v }}\n  - id: b\n    run: echo 5\n"
     "    capture: [{regex: '(?P<v>\\d+)', type: int}]\n", "steps[0].run"),
    # an expectation reading a later step's fact (named capture with name:)
    ("  - id: a\n    run: echo 4\n    expect: [{that: facts.w == 4, finding: {code: SD101}}]\n  - id: b\n"
     "    run: echo 4\n    capture: [{regex: '(\\d+)', name: w, type: int}]\n", "steps[0].expect[0].that"),
])
def test_other_fields_that_read_a_later_capture(tmp_path, body, where):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n" + body)
    proc = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert f"(at {where})" in " ".join(proc.stderr.split())


@pytest.mark.parametrize("body", [
    # until: and that: see the step's own capture (they are read after its command ran)
    "  - id: a\n    run: echo 5\n    capture: [{regex: '(?P<v>\\d+)', type: int}]\n    retries: 2\n"
    "    until: facts.v == 5\n    expect: [{that: facts.v > 3, finding: {code: SD101}}]\n",
    # a probe's facts are unknown before it runs: an earlier probe may set the name
    "  - id: info\n    probe: host_info\n  - id: a\n    when: facts.v is defined\n    run: echo hi\n"
    "  - id: b\n    run: echo 5\n    capture: [{regex: '(?P<v>\\d+)', type: int}]\n",
    # a fact no capture sets at all is the runtime's to report (a probe, a typo): not this check
    "  - id: a\n    when: facts.gpus is defined\n    run: echo hi\n",
])
def test_orders_that_are_fine_still_validate(tmp_path, body):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n" + body)
    proc = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
