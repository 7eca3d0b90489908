"""A step with `retries:` that timed out says on how many attempts.

The on-call engineer's `wait_ready` step (timeout 1, retries 2) timed out three times, and the
console, the SD002 evidence and the report said "timed out after 1 s": read as one try, the
fix looked like "add retries", which the step had. Now each says the attempts. Through the
real CLI on --host local.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def _run(tmp_path, step_text: str):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: wait_ready\n" + step_text, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    return result, run_dir, record


def test_a_step_that_timed_out_on_every_attempt_says_how_many(tmp_path):
    result, run_dir, record = _run(tmp_path, "    run: sleep 600\n    timeout: 1\n    retries: 2\n    retry_delay: 0\n")
    said = "timed out after 1 s on each of 3 attempts"
    (step,) = record["steps"]
    assert (step["status"], step["attempts"]) == ("timeout", 3)
    assert step["message"].startswith(said + ";"), step["message"]
    (finding,) = record["findings"]
    assert finding["code"] == "SD002"
    assert finding["evidence"][0].startswith(said), finding["evidence"]
    assert said in result.stderr  # the console lines
    assert said in (run_dir / "report.md").read_text(encoding="utf-8")
    assert said in (run_dir / "report.html").read_text(encoding="utf-8")


def test_a_step_that_timed_out_on_its_last_attempt_only_says_so(tmp_path):
    # The first attempt fails at once (and leaves the marker); the second hangs.
    marker = tmp_path / "tried"
    result, _, record = _run(tmp_path, (
        f"    run: if [ -e {marker} ]; then sleep 600; else touch {marker}; exit 1; fi\n"
        "    timeout: 1\n    retries: 1\n    retry_delay: 0\n"
    ))
    (step,) = record["steps"]
    assert (step["status"], step["attempts"]) == ("timeout", 2)
    assert step["message"].startswith("timed out after 1 s on attempt 2 (the one before it did not time out);"), step["message"]


def test_a_step_tried_once_reads_as_before(tmp_path):
    _, _, record = _run(tmp_path, "    run: sleep 600\n    timeout: 1\n")
    (step,) = record["steps"]
    assert step["attempts"] == 1
    assert step["message"] == "timed out after 1 s; process tree killed"
