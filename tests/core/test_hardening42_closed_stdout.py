"""A process started with standard output closed (`spec-debug run ... --json >&-`, a job runner
that closes descriptor 1) has sys.stdout None: `run --json` ended a finished run with a
traceback, "AttributeError: 'NoneType' object has no attribute 'write'" (exit 1), and so did
`report RUN` and `explain PLAYBOOK`. Writing there is now refused as a write to a broken disk
is: one line, exit 3; the run's record is complete, and a command that writes no stdout (a run
without --json, `schema -o FILE`) is not disturbed."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """
name: closed
steps:
  - id: hello
    run: echo hello
"""


def _closed(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The CLI with descriptor 1 closed, as `>&-` leaves it."""
    command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "spec_debug", *args))
    return subprocess.run(["bash", "-c", f"exec {command} >&-"], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


def _said(proc: subprocess.CompletedProcess) -> str:
    return proc.stdout + proc.stderr


def test_run_json_to_a_closed_stdout_is_one_line_and_the_record_is_whole(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _closed(tmp_path, "run", "p.yaml", "--host", "local", "--json")
    assert "Traceback" not in _said(proc) and "AttributeError" not in _said(proc)
    assert proc.returncode == 3, _said(proc)
    assert "error: writing the output: standard output is closed" in proc.stderr
    [run_dir] = list((tmp_path / "runs").iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "passed" and record["steps"][0]["stdout"] == "hello\n"


@pytest.mark.parametrize("argv", [["explain", "p.yaml"], ["findings", "SD101"]])
def test_documents_to_a_closed_stdout_are_one_line(tmp_path, argv):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _closed(tmp_path, *argv)
    assert "Traceback" not in _said(proc)
    assert proc.returncode == 3, _said(proc)
    assert "error: writing the output: standard output is closed" in proc.stderr


def test_commands_that_write_no_stdout_still_work(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _closed(tmp_path, "run", "p.yaml", "--host", "local")
    assert proc.returncode == 0, _said(proc)
    proc = _closed(tmp_path, "schema", "-o", "schema.json")
    assert proc.returncode == 0, _said(proc)
    assert json.loads((tmp_path / "schema.json").read_text())
    # run.json did not take descriptor 1: nothing else was written into it
    [run_dir] = list((tmp_path / "runs").iterdir())
    assert json.loads((run_dir / "run.json").read_text())["status"] == "passed"
