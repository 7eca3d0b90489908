"""The steps an `on_failure: stop` step left unrun are listed on the console.

A playbook that stops at a failed health check (`on_failure: stop`: the later benchmarks would
only measure a dead server) listed the steps up to that one and said FAILED; the record and the
reports held the rest as skipped ("not run: step 'health' failed with on_failure: stop"), but
the console said nothing of them, and a reader took the three lines for the whole playbook.
Each such step now has its "skipped" line, as a step skipped by `when:` has. Through the real
CLI, a fleet of two local hosts included.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: stop
vars:
  code: 0
steps:
  - id: health
    run: "exit {{ code }}"
    on_failure: stop
  - id: bench
    run: echo bench
  - id: accept
    run: echo accept
"""


def _lines(result) -> list[str]:
    assert "Traceback" not in result.stderr, result.stderr
    return [" ".join(line.split()) for line in result.stderr.splitlines()]


def test_the_steps_left_unrun_by_a_stop_are_listed(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "p.yaml", "--host", "local", "--var", "code=7", "--out", "runs", cwd=tmp_path)
    _, record = only_run(tmp_path / "runs")
    assert result.code == 1
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("health", "failed"), ("bench", "skipped"), ("accept", "skipped")]
    lines = _lines(result)
    assert [line for line in lines if line.startswith("skipped")] == [
        "skipped bench not run: step 'health' failed with on_failure: stop",  # was not said
        "skipped accept not run: step 'health' failed with on_failure: stop",
    ], lines


def test_a_fleet_lists_them_under_the_host_that_stopped(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text("gpu01 ansible_connection=local code=0\n"
                                        "gpu02 ansible_connection=local code=7\n")
    result = run_cli("run", "p.yaml", "-i", "hosts.ini", "--forks", "1", "--out", "runs", cwd=tmp_path)
    _, record = only_run(tmp_path / "runs")
    assert result.code == 1
    statuses = [(s["host"], s["id"], s["status"]) for s in record["steps"]]
    assert statuses == [("gpu01", "health", "passed"), ("gpu01", "bench", "passed"), ("gpu01", "accept", "passed"),
                        ("gpu02", "health", "failed"), ("gpu02", "bench", "skipped"), ("gpu02", "accept", "skipped")]
    skipped = [line for line in _lines(result) if "skipped" in line]
    assert len(skipped) == 2 and all(line.startswith("gpu02") and "failed with on_failure: stop" in line
                                     for line in skipped), skipped
