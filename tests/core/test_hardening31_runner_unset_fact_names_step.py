"""A check on a fact whose capturing step did not pass: `that: facts.sglang_version ...` after
a `version` step skipped for a var not given (requires: [engine]). The step's error said "the
step that captures it failed, errored or was skipped", and the reader searched the run for
which one and why. It now names the earlier steps that did not pass, with their own words
("version skipped: provide --var engine=... to run this step")."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = r"""name: versions
vars:
  engine: ""
steps:
  - id: ok
    run: echo up
  - id: version
    requires: [engine]
    run: echo "{{ engine }} 0.5.4"
    capture:
      - regex: ' (?P<sglang_version>\S+)'
        type: str
  - id: crashed
    run: exit 7
  - id: check_version
    run: "true"
    expect:
      - that: facts.sglang_version.startswith('0.5')
"""


def test_the_check_names_the_step_that_did_not_capture_and_why(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    check = next(s for s in record["steps"] if s["id"] == "check_version")
    assert check["status"] == "error"
    assert ("facts.sglang_version is not set: no earlier step captured it on this host (the step that captures it "
            "failed, errored or was skipped: version skipped: provide --var engine=... to run this step)"
            ) in check["message"], check["message"]
    # `crashed` captures nothing: naming it sent the reader to an unrelated failure (hardening44)
    assert "crashed" not in check["message"]
    assert " ok " not in check["message"]
