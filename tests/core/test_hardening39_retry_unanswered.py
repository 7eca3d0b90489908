"""`spec-debug run --retry-failed RUN_DIR` after a step that never gave its answer.

A step that timed out (SD002) or could not run or be read (SD003) is a warning, so its host
"passed" and --retry-failed skipped it: the on-call engineer who raised the timeout, or mounted
the log, could not re-run the check it stands for, and was told "no host given, pass --host
local" when no host was left. Now such a host is retried, and a run with nothing to retry says
so. Through the real CLI on --host local.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def _first_run(tmp_path, playbook_text: str):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(playbook_text, encoding="utf-8")
    out = tmp_path / "runs"
    first = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    return playbook, run_dir, record, first


def _retry(tmp_path, playbook, run_dir):
    again = tmp_path / "again"
    result = run_cli("run", str(playbook), "--out", str(again), "--retry-failed", str(run_dir))
    assert "Traceback" not in result.stderr, result.stderr
    return result, (only_run(again)[1] if again.exists() else None)


def test_a_host_whose_step_timed_out_is_retried(tmp_path):
    ready = tmp_path / "ready"
    playbook, run_dir, record, first = _first_run(tmp_path, (
        "name: p\nsteps:\n  - id: load\n"
        f"    run: test -e {ready} || sleep 600\n"
        "    timeout: 1\n"
        "  - id: after\n    run: echo ok\n"
    ))
    assert first.code == 0  # a timeout is a warning: the verdict is unchanged
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("load", "timeout"), ("after", "passed")]
    assert "SD002" in [f["code"] for f in record["findings"]]
    ready.touch()  # what hung is fixed
    result, again = _retry(tmp_path, playbook, run_dir)
    assert result.code == 0, result.stderr
    assert [h["name"] for h in again["hosts"]] == ["local"]
    assert [(s["id"], s["status"]) for s in again["steps"]] == [("load", "passed"), ("after", "passed")]


def test_a_host_whose_step_could_not_be_read_is_retried(tmp_path):
    log = tmp_path / "server.log"
    log.write_text("server starting\n")
    playbook, run_dir, record, first = _first_run(tmp_path, (
        "name: p\nsteps:\n  - id: accept\n"
        f"    run: cat {log}\n"
        "    capture:\n      - regex: 'accept length: (?P<accept>[0-9.]+)'\n        type: str\n"
        "    expect:\n      - that: facts.accept | float > 2\n        finding: SD101\n"
    ))
    assert [s["status"] for s in record["steps"]] == ["error"]
    assert [f["code"] for f in record["findings"]] == ["SD003"]
    log.write_text("accept length: 3.1\n")
    result, again = _retry(tmp_path, playbook, run_dir)
    assert result.code == 0, result.stderr
    assert [(s["id"], s["status"], s["facts"]) for s in again["steps"]] == [("accept", "passed", {"accept": "3.1"})]


def test_a_run_with_nothing_to_retry_says_so(tmp_path):
    playbook, run_dir, record, first = _first_run(tmp_path, "name: p\nsteps:\n  - id: ok\n    run: echo ok\n")
    assert first.code == 0 and record["hosts"][0]["status"] == "passed"
    result, again = _retry(tmp_path, playbook, run_dir)
    assert result.code == 2
    assert "--retry-failed: no host of that run failed; nothing to re-run" in result.stderr
    assert "no host given" not in result.stderr
    assert again is None  # no empty run folder left behind
