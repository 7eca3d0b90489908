"""What `expect:` does to the exit-code check, as docs/playbooks.md now says it.

With no `expect:`, a non-zero exit fails the step. With `expect:`, the expectations alone judge
it: `grep -c ERROR log` exits 1 when it counts none, and `contains: "0"` after it must pass;
an `exit_code:` expectation in the list brings the exit code back."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: log_errors
steps:
  - id: no_expect
    run: echo 0; exit 1
  - id: expect_alone
    run: echo 0; exit 1
    expect:
      - contains: "0"
  - id: expect_with_exit_code
    run: echo 0; exit 1
    expect:
      - contains: "0"
      - exit_code: 0
"""


def test_expect_judges_a_step_alone_unless_it_names_the_exit_code(tmp_path: Path):
    playbook = tmp_path / "log_errors.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    steps = {step["id"]: step for step in json.loads(result.stdout)["steps"]}
    assert {name: step["status"] for name, step in steps.items()} == {
        "no_expect": "failed", "expect_alone": "passed", "expect_with_exit_code": "failed"}
    assert steps["expect_with_exit_code"]["message"] == "expected exit code 0, observed exit code 1"
    assert result.code == 1


def test_the_docs_say_so():
    docs = " ".join((Path(__file__).parents[2] / "docs" / "playbooks.md").read_text(encoding="utf-8").split())
    assert ("A step with `expect:` is judged by its expectations alone: its exit code counts only where an "
            "`exit_code:` expectation names it") in docs
