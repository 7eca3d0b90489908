"""Ctrl-C in a fleet run: run.json tells the hosts that were done, cut, and never started apart.

With `--forks 2`, a host still queued when the run was stopped was recorded exactly as a host
cut in the middle of a step: status "aborted", error "interrupted (Ctrl-C)" and a started_at of
the moment of the Ctrl-C, so run.json and the reports' host table said nothing of which hosts
were never looked at. Now such a host has no start time and its error says it was not started.
Through the real CLI, on local hosts of an Ansible inventory.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from spec_debug.runner.engine import NOT_STARTED


def _record(runs):
    for path in runs.glob("*/run.json"):
        try:
            return json.loads(path.read_text())
        except ValueError:  # caught between two writes
            return None
    return None


def test_a_stopped_fleet_records_which_hosts_never_started(tmp_path):
    (tmp_path / "inv.ini").write_text("".join(f"{name} ansible_connection=local nap={nap}\n"
                                              for name, nap in [("h1", 0), ("h2", 60), ("h3", 60), ("h4", 60)]))
    (tmp_path / "p.yaml").write_text("name: p\nvars:\n  nap: 0\nsteps:\n  - id: one\n    run: echo one\n"
                                     "  - id: two\n    run: sleep {{ vars.nap }}\n  - id: three\n    run: echo three\n")
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", "p.yaml", "-i", "inv.ini", "--forks", "2",
                             "--out", "runs"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    try:
        deadline = time.monotonic() + 60
        while True:  # h1 done, h2 and h3 both in their long step, h4 queued behind them
            record = _record(tmp_path / "runs")
            hosts = {h["name"]: h for h in record["hosts"]} if record else {}
            if hosts and hosts["h1"]["status"] == "passed" and \
                    hosts["h2"]["running_step"] == "two" and hosts["h3"]["running_step"] == "two":
                break
            assert time.monotonic() < deadline and proc.poll() is None, record
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 3, stderr
    record = _record(tmp_path / "runs")
    hosts = {h["name"]: h for h in record["hosts"]}
    assert record["status"] == "aborted" and record["abort_reason"] == "interrupted (Ctrl-C)"
    assert hosts["h1"]["status"] == "passed" and hosts["h1"]["error"] is None
    for cut in ("h2", "h3"):  # stopped in their step "two"
        assert hosts[cut]["status"] == "aborted" and hosts[cut]["error"] == "interrupted (Ctrl-C)", hosts[cut]
        assert hosts[cut]["started_at"] is not None
    assert hosts["h4"]["status"] == "aborted", hosts["h4"]
    assert hosts["h4"]["error"] == f"interrupted (Ctrl-C); {NOT_STARTED}"  # was "interrupted (Ctrl-C)"
    assert hosts["h4"]["started_at"] is None  # was the time of the Ctrl-C
    assert not [s for s in record["steps"] if s["host"] == "h4"]
    report = next((tmp_path / "runs").glob("*/report.md")).read_text()
    assert f"| `h4` | aborted | 0 | 0 | interrupted (Ctrl-C); {NOT_STARTED} |" in report
    assert "| `h2` | aborted | 0 | 0 | interrupted (Ctrl-C) |" in report
