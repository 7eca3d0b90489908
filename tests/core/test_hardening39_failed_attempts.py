"""A step with `retries:` that failed on every attempt says it was the last of them.

`run: nvidia-smi` with `retries: 2` that exited 1 each time said "exit code 1" in the console
and the report's steps table: read as one try, the fix the reader reached for ("add retries")
was already there. The message now ends "(attempt 3 of 3)"; a step tried once, and an `until`
that never held (whose message counts its attempts already), read as before. Through the real
CLI on --host local.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = r"""name: flaky
steps:
  - id: smi
    run: exit 1
    retries: 2
    retry_delay: 0
  - id: banner
    run: echo loading
    retries: 1
    retry_delay: 0
    expect:
      - contains: ready
  - id: once
    run: exit 1
  - id: wait
    run: echo 0
    capture:
      - regex: '(?P<ready>\d)'
        type: int
    retries: 1
    retry_delay: 0
    until: facts.ready == 1
"""


def test_a_step_that_failed_on_every_retry_says_its_attempts(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    assert result.code == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    assert (steps["smi"]["status"], steps["smi"]["attempts"]) == ("failed", 3)
    assert steps["smi"]["message"] == "exit code 1 (attempt 3 of 3)"
    assert steps["banner"]["message"] == "expected output contains 'ready', observed not found (attempt 2 of 2)"
    assert steps["once"]["message"] == "exit code 1"
    assert steps["wait"]["message"] == "until 'facts.ready == 1' was still false after 2 attempt(s) (facts.ready = 0)"
    assert "exit code 1 (attempt 3 of 3)" in result.stderr  # the console line
    assert "exit code 1 (attempt 3 of 3)" in (run_dir / "report.md").read_text(encoding="utf-8")
