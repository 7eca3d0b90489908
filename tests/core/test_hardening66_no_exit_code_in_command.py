"""`{{ steps.ID.exit_code }}` of a step that has no exit code fails the step that writes it.

A step that timed out (or was skipped) has exit_code None. A later `run: report --rc {{
steps.bench.exit_code }}` ran as `report --rc ''` and passed: the command got an empty word
where a number was meant, as a None fact did before it was refused. It now fails that step
(error, SD003), naming the value and why the step has no exit code; `| default(...)` and a
`when: ... is not none` guard work, and an exit code that is set renders as before."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: bench_rc
vars:
  seconds: "5"
steps:
  - id: bench
    run: sleep {{ seconds }}
    timeout: 1
  - id: report
    run: echo "rc={{ steps.bench.exit_code }}"
  - id: report_default
    run: echo "rc={{ steps.bench.exit_code | default(-1) }}"
  - id: report_guarded
    when: steps.bench.exit_code is not none
    run: echo "rc={{ steps.bench.exit_code }}"
"""


def _steps(tmp_path: Path, *given: str) -> dict[str, dict]:
    playbook = tmp_path / "bench_rc.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", *given)
    return {step["id"]: step for step in json.loads(result.stdout)["steps"]}


def test_a_timed_out_steps_exit_code_fails_the_command_that_writes_it(tmp_path):
    steps = _steps(tmp_path)
    assert steps["bench"]["status"] == "timeout" and steps["bench"]["exit_code"] is None
    report = steps["report"]
    assert report["status"] == "error" and report["command"] is None
    assert report["message"] == (
        "step 'report', run: steps.bench.exit_code is None: step 'bench' has no exit code "
        "(status timeout: timed out after 1 s; process tree killed); the command would have had '' in its place")
    assert steps["report_default"]["status"] == "passed" and steps["report_default"]["stdout"] == "rc=-1\n"
    assert steps["report_guarded"]["status"] == "skipped"


def test_an_exit_code_that_is_set_renders_as_before(tmp_path):
    steps = _steps(tmp_path, "--var", "seconds=0")
    assert steps["bench"]["status"] == "passed"
    assert steps["report"]["status"] == "passed" and steps["report"]["stdout"] == "rc=0\n"
    assert steps["report_default"]["stdout"] == "rc=0\n"
    assert steps["report_guarded"]["stdout"] == "rc=0\n"
