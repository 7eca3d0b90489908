"""Ctrl-C, SIGTERM or SIGHUP that comes just as the last step ends: the run follows its results.

A CI job cancelled (SIGTERM), a tmux pane closed (SIGHUP) or a Ctrl-C typed as the last step
printed its line: every step had run to its end and been judged, and the host was recorded
passed or failed as its steps said (test_hardening69_last_step_then_abort.py), but the run was
"aborted" and exited 3, so a failed check there read as "interrupted" and a clean run as not
finished. The run now ends as its hosts did (exit 0 or 1), run.json's abort_reason, the
verdict line and the reports' verdict saying the stop came after every step had run. A stop that cut a step still aborts.

The CLI sends the signal to itself from the console's own line for the step, so the race is
deterministic: through the real CLI, real signal handlers and a real run folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_CLI_WITH_A_SIGNAL_AFTER = textwrap.dedent(
    """
    import os, signal, sys

    sys.path.insert(0, {repo!r})
    import spec_debug.cli_progress as cli_progress

    step_id, signum = sys.argv.pop(1), getattr(signal, sys.argv.pop(1))
    real_step_finished = cli_progress.ConsoleReporter.step_finished

    def step_finished(self, host, step, result, findings):
        real_step_finished(self, host, step, result, findings)
        if step.id == step_id:
            os.kill(os.getpid(), signum)

    cli_progress.ConsoleReporter.step_finished = step_finished
    sys.argv = ["spec-debug", *sys.argv[1:]]
    from spec_debug.cli import main
    main()
    """
)

REASONS = {"SIGINT": "interrupted (Ctrl-C)", "SIGTERM": "terminated (SIGTERM)",
           "SIGHUP": "hung up (SIGHUP: the terminal or SSH session went away)"}
PLAYBOOK = "name: p\nsteps:\n  - id: one\n    run: echo one\n  - id: two\n    run: echo two\n"


def _run(tmp_path: Path, playbook: str, step_id: str, signame: str):
    script = tmp_path / "cli_with_a_signal.py"
    script.write_text(_CLI_WITH_A_SIGNAL_AFTER.format(repo=str(REPO)))
    (tmp_path / "p.yaml").write_text(playbook)
    out = tmp_path / "runs"
    result = subprocess.run(
        [sys.executable, str(script), step_id, signame, "run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    assert "Traceback" not in result.stderr, result.stderr
    (run_dir,) = out.iterdir()
    return result, json.loads((run_dir / "run.json").read_text()), run_dir


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_after_the_last_step_keeps_the_results_verdict(tmp_path, signame):
    result, record, run_dir = _run(tmp_path, PLAYBOOK, "two", signame)
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("one", "passed"), ("two", "passed")]
    assert record["hosts"][0]["status"] == "passed"
    assert (record["status"], record["abort_reason"]) == ("passed", REASONS[signame])  # was "aborted"
    assert result.returncode == 0, result.stderr  # was 3
    said = " ".join(result.stderr.splitlines()[-1].split())
    assert said.startswith(f"PASSED: 0 error(s), 0 warning(s) · {REASONS[signame]} after every step had run · report: "), said
    report = " ".join((run_dir / "report.md").read_text().split())
    assert (f"> **Verdict:** Clean: no error or warning findings. The run was stopped ({REASONS[signame]}) "
            "after every step had run; nothing was cut.") in report, report[:400]
    assert "nothing was cut." in (run_dir / "report.html").read_text()


def test_a_failed_check_before_the_stop_exits_1(tmp_path):
    playbook = PLAYBOOK.replace("run: echo two", "run: echo two\n    expect:\n      - contains: three")
    result, record, _ = _run(tmp_path, playbook, "two", "SIGTERM")
    assert (record["status"], record["hosts"][0]["status"]) == ("failed", "failed")
    assert result.returncode == 1, result.stderr  # was 3: the failed check read as an interruption
    assert "FAILED: 1 error(s), 0 warning(s) · terminated (SIGTERM) after every step had run" in result.stderr


def test_a_stop_that_cuts_the_last_step_still_aborts(tmp_path):
    # The host thread starts `two` before the signal's handler runs: the stop kills it.
    result, record, _ = _run(tmp_path, PLAYBOOK.replace("echo two", "sleep 30"), "one", "SIGTERM")
    assert [(s["id"], s["status"]) for s in record["steps"]][:1] == [("one", "passed")]
    assert [s["status"] for s in record["steps"]][1:] in ([], ["error"])  # not reached, or "interrupted: ..."
    assert (record["status"], record["hosts"][0]["status"]) == ("aborted", "aborted")
    assert result.returncode == 3, result.stderr
    assert "after every step had run" not in result.stderr
