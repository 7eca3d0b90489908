"""A step with several checks where one cannot be evaluated: a capture that matched nothing
(the server's log line changed with a new engine release) leaves its fact None, and
`that: facts.tput > 50` raises.

That stopped the step's other expectations: `that: facts.accept_length > 1.5` with its SD201
error finding was never checked, the step became one SD003 warning, and the run said PASSED
(exit 0) over an acceptance that failed its check. A failed check before the unreadable one
was dropped the same way. Every expectation is now checked; the unreadable one is an SD003
warning beside the failures' findings."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _run(tmp_path, expect: str) -> tuple[int, dict]:
    (tmp_path / "p.yaml").write_text(r"""name: accept
steps:
  - id: bench
    run: |
      echo 'accept_length: 1.2'
    capture:
      - regex: 'accept_length: (?P<accept_length>[\d.]+)'
      - regex: 'tok/s: (?P<tput>[\d.]+)'
    expect:
""" + expect)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert "Traceback" not in result.stderr, result.stderr
    return result.code, json.loads(result.stdout)


UNREADABLE = "      - that: facts.tput > 50\n"
ACCEPTANCE = "      - that: facts.accept_length > 1.5\n        finding:\n          code: SD201\n"


def test_a_failed_check_after_one_that_cannot_be_evaluated_still_fails_the_run(tmp_path):
    code, record = _run(tmp_path, UNREADABLE + ACCEPTANCE)
    assert (code, record["status"]) == (1, "failed")
    (step,) = record["steps"]
    assert step["status"] == "failed"
    assert sorted((f["code"], f["severity"]) for f in record["findings"]) == [("SD003", "warning"), ("SD201", "error")]
    sd201 = next(f for f in record["findings"] if f["code"] == "SD201")
    assert sd201["evidence"][0] == "expected that facts.accept_length > 1.5, observed False (facts.accept_length = 1.2)"
    assert "facts.tput is None" in step["message"]
    assert [(e["expect"], e["passed"]) for e in step["expectations"]] == [
        ("that facts.tput > 50", False), ("that facts.accept_length > 1.5", False)]


def test_a_failed_check_before_one_that_cannot_be_evaluated_is_kept(tmp_path):
    code, record = _run(tmp_path, ACCEPTANCE + UNREADABLE)
    assert (code, record["status"]) == (1, "failed")
    assert sorted(f["code"] for f in record["findings"]) == ["SD003", "SD201"]


def test_a_check_that_cannot_be_evaluated_alone_is_still_an_error_step(tmp_path):
    code, record = _run(tmp_path, UNREADABLE)
    (step,) = record["steps"]
    assert (code, step["status"]) == (0, "error")
    assert [f["code"] for f in record["findings"]] == ["SD003"]
    assert step["message"].startswith("step 'bench', expect.that: expression 'facts.tput > 50' failed: facts.tput is None")


def test_the_failure_finding_of_a_check_without_a_code_names_only_the_failure(tmp_path):
    code, record = _run(tmp_path, UNREADABLE + "      - that: facts.accept_length > 1.5\n")
    assert code == 1
    sd001 = next(f for f in record["findings"] if f["code"] == "SD001")
    assert sd001["title"] == "Step 'bench': expected that facts.accept_length > 1.5, observed False (facts.accept_length = 1.2)"
