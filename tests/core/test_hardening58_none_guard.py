"""`expect: [{that: facts.num_steps is not defined or facts.num_steps > 1}]` beside the capture
of num_steps validated "ok", but a capture that matches nothing sets its fact to None (defined):
on the very host missing the flag the check failed the step with SD003 ("nothing was
checked"). `playbooks validate` now warns (exit 0) and gives the guard that works, which the
real run below accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

STEP = """\
name: num_steps_check
steps:
  - id: num_steps
    run: echo --speculative-num-steps missing
    capture: [{{regex: '--speculative-num-steps[ =](?P<num_steps>\\d+)', type: int}}]
    expect: [{{that: {that}, finding: {{code: SD101}}}}]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "playbook.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _statuses(tmp_path: Path, playbook: Path) -> list[str]:
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert result.code == 0, result.stderr
    return [step["status"] for step in record["steps"]]


def test_a_defined_guard_on_a_fact_its_own_capture_sets_is_warned_with_the_guard_that_works(tmp_path: Path) -> None:
    playbook = _write(tmp_path, STEP.format(that="facts.num_steps is not defined or facts.num_steps > 1"))
    assert _statuses(tmp_path, playbook) == ["error"]  # what the guard does at run time: SD003
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0
    assert result.stdout.startswith("ok ")
    assert result.stderr.splitlines() == [
        f"warning: {playbook}:6:21: step 'num_steps' guards facts.num_steps with a defined test in expect.that:, "
        "but this step's capture sets num_steps to None when it matches nothing (defined), so ordering it fails "
        "the step (SD003) instead of skipping the check (at steps[0].expect[0].that)",
        "  hint: write facts.num_steps is none or facts.num_steps > 1",
    ]
    fixed = _write(tmp_path, STEP.format(that="facts.num_steps is none or facts.num_steps > 1"))
    assert run_cli("playbooks", "validate", str(fixed)).stderr == ""
    assert _statuses(tmp_path / "fixed", fixed) == ["passed"]


def test_a_later_steps_guard_keeps_the_defined_test_since_the_capturing_step_may_be_skipped(tmp_path: Path) -> None:
    playbook = _write(tmp_path, """\
name: later
steps:
  - id: a
    run: echo nothing
    capture: [{regex: 'n=(?P<n>\\d+)'}]
  - id: b
    when: facts.n is defined and facts.n >= 2
    run: echo checked
""")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0
    assert result.stderr.splitlines()[-1] == "  hint: write (facts.n is defined and facts.n is not none) and facts.n >= 2"
    fixed = _write(tmp_path, playbook.read_text(encoding="utf-8").replace(
        "facts.n is defined and facts.n >= 2", "(facts.n is defined and facts.n is not none) and facts.n >= 2"))
    assert _statuses(tmp_path / "fixed", fixed) == ["passed", "skipped"]


@pytest.mark.parametrize("capture, that", [
    ("{regex: 'n=(?P<n>\\d+)', default: 0}", "facts.n is not defined or facts.n > 1"),  # never None
    ("{regex: 'n=(?P<n>\\d+)', all: true}", "facts.n is not defined or facts.n | length > 1"),  # a list
    ("{regex: 'n=(?P<n>\\d+)'}", "facts.n is not defined or facts.n is none or facts.n > 1"),  # guarded
    ("{regex: 'n=(?P<n>\\d+)'}", "facts.n is defined and facts.n == 3"),  # None == 3 is fine
    ("{regex: 'm=(?P<m>\\d+)'}", "facts.n is not defined or facts.n > 1"),  # n is captured by no step
])
def test_no_warning_where_the_fact_cannot_be_none_or_is_not_ordered(tmp_path: Path, capture: str, that: str) -> None:
    playbook = _write(tmp_path, f"""\
name: quiet
steps:
  - id: a
    run: echo n=3
    capture: [{capture}]
    expect: [{{that: "{that}"}}]
""")
    result = run_cli("playbooks", "validate", str(playbook))
    assert (result.code, result.stderr) == (0, "")
