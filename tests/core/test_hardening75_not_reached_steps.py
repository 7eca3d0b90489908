"""A run stopped mid-way (SIGTERM from a CI job's cancel, Ctrl-C) recorded only the steps that
ran. A playbook of `a`, `slow`, `after` stopped during `slow` gave a run.json, a report.md and a
report.html that listed `a` and `slow` and said "the record holds the steps that finished":
nothing said that `after` never ran, and the table read as the whole playbook. The record now
keeps the playbook's step ids (playbook.step_ids, a new key), and the verdict, the reports and
the console name the steps that were not reached. A run.json written before the key still
renders as it did."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory):
    """A real `spec-debug run --host local` sent SIGTERM while its second step runs."""
    tmp = tmp_path_factory.mktemp("stopped")
    pid_file = tmp / "slow.pid"
    playbook = tmp / "i.yaml"
    playbook.write_text(f"""\
name: abort-demo
steps:
  - id: a
    run: echo hello
  - id: slow
    run: echo $$ > {pid_file}; exec sleep 300
  - id: after
    run: echo after
""")
    out = tmp / "runs"
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
                            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.is_file() and pid_file.read_text().strip()):
            assert time.monotonic() < deadline and proc.poll() is None, "the slow step never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        if pid_file.is_file() and pid_file.read_text().strip():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert proc.returncode == 3, stderr
    run_dir = next(out.iterdir())
    return run_dir, stdout + stderr


def test_run_json_keeps_the_playbooks_step_ids_next_to_the_steps_that_ran(stopped_run):
    run_dir, _ = stopped_run
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "aborted"
    assert record["playbook"]["step_ids"] == ["a", "slow", "after"]
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("a", "passed"), ("slow", "error")]
    # every key a tool read before is still there
    assert {"name", "path", "sha256", "warnings"} <= record["playbook"].keys()


def test_the_verdict_and_the_reports_name_the_step_that_never_ran(stopped_run):
    run_dir, _ = stopped_run
    md = (run_dir / "report.md").read_text()
    assert ("> **Verdict:** Run aborted (terminated (SIGTERM)); the record holds the steps that finished; "
            "not reached: after.") in md
    assert "Not reached (the run stopped, or the host could not be reached or dropped, before these steps):\n\n- `local`: after\n" in md
    html = (run_dir / "report.html").read_text()
    assert "not reached: after." in html
    assert "<ul><li><code>local</code>: after</li>" in html


def test_the_console_says_it_under_the_verdict(stopped_run):
    _, said = stopped_run
    lines = said.splitlines()
    verdict = next(index for index, line in enumerate(lines) if line.startswith("ABORTED: "))
    assert lines[verdict + 1] == "  not reached: after", said


def test_report_re_renders_it_and_json_carries_the_step_ids(stopped_run):
    run_dir, _ = stopped_run
    result = run_cli("report", str(run_dir))
    assert result.code == 0, result.stderr
    assert "the record holds the steps that finished; not reached: after." in result.stdout
    as_json = run_cli("report", str(run_dir), "--format", "json")
    assert json.loads(as_json.stdout)["playbook"]["step_ids"] == ["a", "slow", "after"]


def test_a_record_written_before_step_ids_renders_as_before(stopped_run, tmp_path):
    run_dir, _ = stopped_run
    record = json.loads((run_dir / "run.json").read_text())
    del record["playbook"]["step_ids"]
    (tmp_path / "run.json").write_text(json.dumps(record))
    result = run_cli("report", str(tmp_path))
    assert result.code == 0, result.stderr
    assert "> **Verdict:** Run aborted (terminated (SIGTERM)); the record holds the steps that finished.\n" in result.stdout
    assert "Not reached" not in result.stdout


def test_a_killed_controllers_record_names_the_cut_step_and_the_steps_after_it(stopped_run, tmp_path):
    # The same run as a controller killed with SIGKILL leaves it: status running, the step under
    # way named by running_step and in no table; `after` never came up.
    run_dir, _ = stopped_run
    record = json.loads((run_dir / "run.json").read_text())
    record.update(status="running", finished_at=None, abort_reason=None)
    record["steps"] = record["steps"][:1]
    record["hosts"][0].update(status="running", running_step="slow", error=None)
    (tmp_path / "run.json").write_text(json.dumps(record))
    result = run_cli("report", str(tmp_path))
    assert result.code == 0, result.stderr
    assert ("Cut mid-step: slow on local (its command may still be running there). Not reached: after."
            in result.stdout), result.stdout
    assert "- `local`: after\n" in result.stdout
