"""A `when:` that names a fact of a step that was skipped, after an unrelated step failed.

The error named every earlier step that did not pass as "the step that captures it": the
failed `gpu` step (which captures nothing) was blamed, and each later reader of the fact
quoted the error of the one before it, nested. Only a step whose capture: sets the fact (or a
probe or fetch step, whose facts are known only once it ran) is named now. Through the CLI on
--host local."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = r"""name: skipped_capture
vars:
  engine: ""
steps:
  - id: gpu
    run: exit 3
  - id: version
    requires: [engine]
    run: echo "v=7"
    capture:
      - regex: 'v=(?P<version>\d+)'
  - id: gate
    when: facts.version > 5
    run: echo gated
  - id: again
    run: "echo {{ facts.version }}"
"""


def _steps(tmp_path) -> dict[str, dict]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert "Traceback" not in result.stderr, result.stderr
    return {s["id"]: s for s in json.loads(result.stdout)["steps"]}


def test_the_when_names_the_skipped_capturing_step_not_the_failed_one(tmp_path):
    steps = _steps(tmp_path)
    said = ("facts.version is not set: no earlier step captured it on this host (the step that captures it failed, "
            "errored or was skipped: version skipped: provide --var engine=... to run this step)")
    assert steps["gate"]["status"] == "error"
    assert steps["gate"]["message"] == f"step 'gate', when: {said}"
    # the next reader says the same cause, not the gate's error nested inside its own
    assert steps["again"]["message"] == f"step 'again', run: {said}"


def test_a_step_result_says_what_its_capture_sets(tmp_path, write_playbook):
    playbook = write_playbook(r"""name: views
steps:
  - id: version
    run: echo v=7
    capture:
      - regex: 'v=(?P<version>\d+)'
  - id: show
    run: "echo {{ steps.version.captures | join(',') }}"
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][1]["stdout"] == "version\n"
