"""The controller killed with SIGKILL (the OOM killer, a closed laptop, `kill -9` of a run that
would not stop) while a long step ran: run.json stays "running" with the steps that finished.
It did not say which step was under way, so `spec-debug report` read "the record holds the 1
step(s) that finished" and nothing about the benchmark cut in the middle, whose command may
still be running on the host. The host's record now names it (hosts[].running_step) and the
report's verdict says it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import run_cli

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_a_record_left_by_a_killed_controller_names_the_step_that_was_cut(tmp_path):
    pid_file = tmp_path / "bench.pid"
    playbook = tmp_path / "bench.yaml"
    playbook.write_text(f"""\
name: bench
steps:
  - id: accept
    run: echo accept_length=2.1
    capture:
      - regex: 'accept_length=(?P<accept_length>[0-9.]+)'
  - id: long_bench
    run: echo $$ > {pid_file}; exec sleep 300
  - id: after
    run: echo never
""")
    out = tmp_path / "runs"
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
                            cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.is_file() and pid_file.read_text().strip()):
            assert time.monotonic() < deadline and proc.poll() is None, "the long step never started"
            time.sleep(0.05)
        # The record is written within a tenth of a second of the step's start; 30 s for a loaded machine.
        deadline = time.monotonic() + 30
        while True:
            record = json.loads(next(out.glob("*/run.json")).read_text())
            if record["hosts"][0].get("running_step") == "long_bench":
                break
            assert time.monotonic() < deadline, f"run.json never named the step under way: {record['hosts'][0]}"
            time.sleep(0.05)
        proc.kill()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if pid_file.is_file() and pid_file.read_text().strip():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass

    run_dir = next(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "running"
    assert [s["id"] for s in record["steps"]] == ["accept"]
    result = run_cli("report", str(run_dir))
    assert result.code == 0, result.stderr
    assert "Cut mid-step: long_bench on local (its command may still be running there)." in result.stdout, result.stdout


def test_a_finished_run_names_no_step_under_way(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: a\n    run: echo a\n  - id: b\n    run: 'false'\n    on_failure: stop\n"
                        "  - id: c\n    run: echo c\n")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    assert [h["running_step"] for h in record["hosts"]] == [None]
    assert "Cut mid-step" not in (next((tmp_path / "runs").iterdir()) / "report.md").read_text()
