"""A step whose `requires:` var was given empty on the command line was skipped with "skipped:
provide --var x=... to run this step", and the SD004 title said "Not checked: provide --var
x=... to run 1 more step(s)" though the user had passed `--var x=` (a shell variable that was
unset: `--var server_log=$SERVER_LOG`), `--var x=[]` or `--var x=null`; they read it as their
--var not being seen. Now the skip and the title say the --var was empty and what it was:
"--var x is empty ([]): give it a value". A var not given keeps "provide --var x=...".
Real `spec-debug run --host local` runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK = 'name: q\nvars:\n  x: ""\nsteps:\n  - id: s\n    requires: [x]\n    run: echo "{{ x }}"\n'


def _run(tmp_path: Path, *extra: str) -> dict:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "-o", "runs", *extra],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())


@pytest.mark.parametrize(("given", "said"), [
    ("x=", "--var x is empty: give it a value"),
    ("x=[]", "--var x is empty ([]): give it a value"),
    ("x=null", "--var x is empty (null): give it a value"),
])
def test_a_var_given_empty_is_told_as_given(tmp_path: Path, given: str, said: str) -> None:
    record = _run(tmp_path, "--var", given)
    assert record["steps"][0]["status"] == "skipped"
    assert record["steps"][0]["message"] == f"skipped: {said} to run this step"
    [finding] = [f for f in record["findings"] if f["code"] == "SD004"]
    assert finding["title"] == f"Not checked: {said} to run 1 more step(s)"


def test_a_var_not_given_still_asks_for_it(tmp_path: Path) -> None:
    record = _run(tmp_path)
    assert record["steps"][0]["message"] == "skipped: provide --var x=... to run this step"
    [finding] = [f for f in record["findings"] if f["code"] == "SD004"]
    assert finding["title"] == "Not checked: provide --var x=... to run 1 more step(s)"
