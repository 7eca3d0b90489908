"""`--var min_free_gb=20GB`: an on-call writes the unit with the number. The shipped host_smoke
compares free disk with `vars.min_free_gb * 1024 * 1024`; the text "20GB" made the step error
("'>=' not supported between 'int' and 'str'") and the run exit 0 with one warning, the disk
never checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """\
name: disk
vars:
  min_free_gb: 20
  baseline_tok_s: 90.0
  label: run1
steps:
  - id: free_disk
    run: echo 1000
    capture: [{regex: '(?P<free_gb>\\d+)', type: int}]
    expect:
      - that: facts.free_gb >= vars.min_free_gb
        finding: {code: SD001, title: "only {{ facts.free_gb }} GB free"}
"""


def _run(tmp_path: Path, *var: str) -> subprocess.CompletedProcess:
    (tmp_path / "disk.yaml").write_text(PLAYBOOK)
    args = [a for v in var for a in ("--var", v)]
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "disk.yaml", "--host", "local", "--out", "runs",
                           *args], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize("given, number", [("min_free_gb=20GB", "20"), ("baseline_tok_s=90 tok/s", "90"),
                                           ("min_free_gb=50%", "50")])
def test_a_unit_after_a_number_var_is_refused_before_any_step_runs(tmp_path, given, number):
    proc = _run(tmp_path, given)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    name = given.split("=")[0]
    message = " ".join(proc.stderr.split())
    assert f"error: --var {given}: {name} is a number in the playbook" in message
    assert f"--var {name}={number}" in message
    assert not list(tmp_path.glob("runs/*/run.json"))  # nothing ran, no empty run folder left behind


def test_numbers_and_text_vars_still_run(tmp_path):
    proc = _run(tmp_path, "min_free_gb=20", "baseline_tok_s=0.50", "label=20GB-disk")
    assert proc.returncode == 0, proc.stderr
    assert "PASSED" in proc.stderr
