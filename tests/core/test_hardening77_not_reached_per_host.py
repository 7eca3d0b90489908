"""A fleet stopped (SIGTERM from a cancelled CI job, Ctrl-C) while some hosts were still queued
behind --forks said, under ABORTED and in the reports' verdict, "not reached: a, slow, after
on gpu01, gpu02": the union of every host's missing steps said of every host, so gpu01, which
had run `a` and was cut in `slow`, read as a host that never ran anything. Now hosts that lack
different steps are said group by group: "not reached: after on gpu01; a, slow, after on
gpu02". One group keeps its words ("not reached: after", "... on gpu02"). A real `spec-debug
run -i` of two local inventory hosts, --forks 1, stopped during the first host's second step."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.record import RunRecord
from spec_debug.report.views import not_reached_words

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def stopped_fleet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("fleet")
    pid_file = tmp / "slow.pid"
    (tmp / "p.yaml").write_text(
        "name: fleet\nsteps:\n  - id: a\n    run: echo a\n"
        f"  - id: slow\n    run: echo $$ > {pid_file}; exec sleep 300\n  - id: after\n    run: echo after\n")
    (tmp / "hosts.yml").write_text(
        "all:\n  hosts:\n    gpu01:\n      ansible_connection: local\n    gpu02:\n      ansible_connection: local\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "hosts.yml", "--forks", "1",
                             "-o", "runs"], cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
    return next((tmp / "runs").iterdir()), stdout + stderr


def test_the_console_says_each_hosts_missing_steps(stopped_fleet: tuple[Path, str]) -> None:
    run_dir, said = stopped_fleet
    record = json.loads((run_dir / "run.json").read_text())
    assert [(s["host"], s["id"], s["status"]) for s in record["steps"]] == [("gpu01", "a", "passed"), ("gpu01", "slow", "error")]
    assert [h["started_at"] is None for h in record["hosts"]] == [False, True]
    lines = said.splitlines()
    verdict = next(index for index, line in enumerate(lines) if line.startswith("ABORTED: "))
    # was: "  not reached: a, slow, after on gpu01, gpu02"
    assert lines[verdict + 1] == "  not reached: after on gpu01; a, slow, after on gpu02", said


def test_the_reports_verdict_says_it_too(stopped_fleet: tuple[Path, str]) -> None:
    run_dir, _ = stopped_fleet
    md = (run_dir / "report.md").read_text()
    assert ("> **Verdict:** Run aborted (terminated (SIGTERM)); the record holds the steps that finished; "
            "not reached: after on gpu01; a, slow, after on gpu02.") in md
    assert "- `gpu01`: after\n- `gpu02`: a, slow, after\n" in md


def test_one_group_keeps_its_words_and_many_are_counted(stopped_fleet: tuple[Path, str]) -> None:
    run_dir, _ = stopped_fleet
    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    both_unstarted = record.model_copy(deep=True)
    both_unstarted.steps = []
    both_unstarted.hosts[0].running_step = None
    assert not_reached_words(both_unstarted) == "not reached: a, slow, after"
    one = record.model_copy(deep=True)
    one.hosts = one.hosts[1:]
    assert not_reached_words(one) == "not reached: a, slow, after"
    fleet = record.model_copy(deep=True)
    fleet.steps = []
    template = fleet.hosts[1]
    fleet.hosts = [template.model_copy(update={"name": f"gpu{n:02d}", "running_step": step})
                   for n, step in enumerate(["a", "slow", "after", None, "a", "slow"], start=1)]
    assert not_reached_words(fleet) == ("not reached: slow, after on gpu01, gpu05; a, after on gpu02, gpu06; "
                                        "a, slow on gpu03; other steps on 1 more host(s)")
