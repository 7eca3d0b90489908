"""Under `python -m spec_debug`, run.json's command_line[0] was the path of
spec_debug/__main__.py (CPython's runpy puts it in sys.argv), a file no shell runs, and the
report's "Re-run only the hosts that failed" command began `spec-debug run`: a program that a
user of a checkout or of a venv not on PATH does not have. The record now keeps the interpreter
and `-m spec_debug`, and the retry command, run as shown in a shell, re-runs the failed host.
A record written before keeps working: its __main__.py becomes `python3 -m spec_debug`."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

from tests.conftest import only_run, run_cli


def _retry_line(run_dir) -> str:
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    line = next(line for line in report.splitlines() if line.startswith("Re-run only the hosts that failed"))
    return line.split("`")[1]


def test_the_retry_command_of_a_python_m_run_runs_as_shown(tmp_path):
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    # One host that runs, one whose connection is refused (port 1): the second is to retry.
    inventory.write_text("[gpus]\nbox ansible_connection=local\ngone ansible_host=127.0.0.1 ansible_port=1\n",
                         encoding="utf-8")
    first = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(tmp_path / "first"), "--batch")
    assert first.code == 3, first.stdout + first.stderr
    run_dir, record = only_run(tmp_path / "first")
    program = record["command_line"][:3]
    assert program[1:] == ["-m", "spec_debug"], record["command_line"]
    assert os.path.realpath(program[0]) == os.path.realpath(sys.executable) or os.path.sep not in program[0]
    assert record["command_line"][3] == "run"

    retry = _retry_line(run_dir)
    assert shlex.split(retry)[:4] == [*program, "run"], retry
    # As shown, in a shell, from where the first run was started.
    again = subprocess.run(["/bin/sh", "-c", retry], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "COLUMNS": "200"})
    assert again.returncode == 3, again.stderr
    assert "Traceback" not in again.stderr
    runs = sorted(p for p in (tmp_path / "first").iterdir() if p.is_dir() and p != run_dir)
    assert len(runs) == 1, runs
    hosts = [h["name"] for h in json.loads((runs[0] / "run.json").read_text())["hosts"]]
    assert hosts == ["gone"]


def test_a_record_written_before_reads_its_main_path_as_python_m() -> None:
    from spec_debug.record import split_program

    assert split_program(["/venv/lib/python3.11/site-packages/spec_debug/__main__.py", "run", "p.yaml"]) == (
        ["python3", "-m", "spec_debug"], ["run", "p.yaml"])
    assert split_program(["/usr/local/bin/spec-debug", "run", "p.yaml"]) == (["spec-debug"], ["run", "p.yaml"])
    assert split_program(["spec-debug", "demo"]) == (["spec-debug"], ["demo"])
