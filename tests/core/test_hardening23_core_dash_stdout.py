"""`-o -` is standard output, as for curl -o -, tar -f - and sort -o -. `report -o -`,
`explain -o -`, `schema -o -` and `findings --markdown -` wrote a file named "-" (and said
"wrote -"). `schema -o FOLDER` is one error line like the others' -o. Through the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PLAYBOOK = """\
name: p
steps:
  - id: a
    run: echo hi
"""


def _cli(cwd, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.fixture
def run_dir(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
    (found,) = (tmp_path / "runs").iterdir()
    return found


@pytest.mark.parametrize(("args", "starts"), [
    (("report", "RUN", "-o", "-"), "# Incident report: p"),
    (("report", "RUN", "-o", "-", "--format", "html"), "<!DOCTYPE html>"),
    (("explain", "p.yaml", "-o", "-"), "# Walkthrough"),
    (("schema", "-o", "-"), "{"),
    (("findings", "--markdown", "-"), "# Finding codes"),
])
def test_dash_is_stdout(tmp_path, run_dir, args, starts):
    args = tuple(str(run_dir) if a == "RUN" else a for a in args)
    proc = _cli(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(starts), proc.stdout[:200]
    assert not (tmp_path / "-").exists()
    assert "wrote" not in proc.stderr


def test_schema_to_a_folder_is_one_error_line(tmp_path):
    (tmp_path / "adir").mkdir()
    proc = _cli(tmp_path, "schema", "-o", "adir")
    assert proc.returncode == 3 and "Traceback" not in proc.stderr
    assert "error: cannot write adir: it is a folder" in proc.stderr
    assert _cli(tmp_path, "schema", "-o", "out/s.json").returncode == 0
    assert "$defs" in json.loads((tmp_path / "out" / "s.json").read_text())
