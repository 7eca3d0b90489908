"""A misspelt fact in `expect:` after an earlier step failed.

`that: facts.accept_lenn > 2` in the step whose own capture sets accept_len, on a host where an
unrelated step (`nvidia_smi`, exit 9) failed before it: the error said "the step that captures
it failed, errored or was skipped: nvidia_smi failed (exit code 9)", and the fix said "guard it:
facts.accept_lenn is defined and ...". The reader went to the GPU step, which captures nothing,
and the guard would have skipped the check on every host. The close name is said first now, and
is the fix. Through the real CLI on --host local.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = r"""name: accept
steps:
  - id: nvidia_smi
    run: exit 9
  - id: accept
    run: "echo 'accept length: 3.1'"
    capture:
      - regex: 'accept length: (?P<accept_len>[0-9.]+)'
        type: float
    expect:
      - that: facts.accept_lenn > 2
  - id: after_error
    run: echo "{{ facts.never }}"
"""


def _run(tmp_path) -> dict:
    (tmp_path / "p.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)


def test_a_misspelt_fact_after_a_failed_step_names_the_close_fact_first(tmp_path):
    record = _run(tmp_path)
    step = next(s for s in record["steps"] if s["id"] == "accept")
    assert step["status"] == "error"
    assert step["facts"] == {"accept_len": 3.1}
    # nvidia_smi captures nothing, so it is no cause at all (hardening44): the close name alone
    assert ("step 'accept', expect.that: facts.accept_lenn is not set: no earlier step captured it on this host "
            "(no step before it captures it: did you mean facts.accept_len?)") in step["message"], step["message"]
    (finding,) = [f for f in record["findings"] if f["step"] == "accept"]
    assert finding["code"] == "SD003"
    assert finding["remediation"].startswith("Write facts.accept_len if that is the fact meant; else guard it"), finding["remediation"]


def test_a_name_like_no_fact_after_a_failed_step_that_captures_nothing_says_to_check_the_name(tmp_path):
    record = _run(tmp_path)
    step = next(s for s in record["steps"] if s["id"] == "after_error")
    assert "facts.never is not set: no earlier step captured it on this host (no step before it captures it: check the name)" in step["message"]
    (finding,) = [f for f in record["findings"] if f["step"] == "after_error"]
    assert finding["remediation"].startswith("Guard it: facts.never is defined"), finding["remediation"]
